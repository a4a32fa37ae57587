/**
 * Small inline icons. Decorative unless given a label. Their attributes are written out, never
 * spread in before others: React walks the props of such an element several times slower (D-176).
 */
type IconProps = { label?: string; className?: string };

export function PhoneIcon({ label, className }: IconProps) {
  return (
    <svg
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable={label ? undefined : false}
      className={className ?? "icon"}
      viewBox="0 0 24 24"
      width="20"
      height="20"
    >
      <path
        fill="currentColor"
        d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.6a1 1 0 0 1-.25 1z"
      />
    </svg>
  );
}

export function MailIcon({ label, className }: IconProps) {
  return (
    <svg
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable={label ? undefined : false}
      className={className ?? "icon"}
      viewBox="0 0 24 24"
      width="20"
      height="20"
    >
      <path
        fill="currentColor"
        d="M3 5h18a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm9 7.2L4.4 7H4v1.2l8 5.4 8-5.4V7h-.4z"
      />
    </svg>
  );
}

export function ChevronIcon({ className }: IconProps) {
  return (
    <svg
      aria-hidden
      focusable={false}
      className={className ?? "icon icon--chevron"}
      viewBox="0 0 24 24"
      width="16"
      height="16"
    >
      <path fill="currentColor" d="M7.4 8.6 12 13.2l4.6-4.6L18 10l-6 6-6-6z" />
    </svg>
  );
}

export function MenuIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="24" height="24">
      <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
    </svg>
  );
}

export function InfoIcon({ className }: IconProps) {
  return (
    <svg
      aria-hidden
      focusable={false}
      className={className ?? "icon"}
      viewBox="0 0 24 24"
      width="24"
      height="24"
    >
      <path
        fill="currentColor"
        d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 15h-2v-6h2zm0-8h-2V7h2z"
      />
    </svg>
  );
}

export function StarRating({ stars = 5 }: { stars?: number }) {
  return (
    <svg
      role="img"
      aria-label={`${stars} out of 5 stars`}
      className="stars"
      viewBox="0 0 120 24"
      width="120"
      height="24"
    >
      {Array.from({ length: 5 }, (_, index) => (
        <path
          key={index}
          transform={`translate(${index * 24} 0)`}
          fill={index < stars ? "currentColor" : "none"}
          stroke="currentColor"
          d="M12 2l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L2 9.2l7.1-.6z"
        />
      ))}
    </svg>
  );
}

export function CalendarIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path
        fill="currentColor"
        d="M7 2h2v2h6V2h2v2h3a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3zm12 8H5v9h14z"
      />
    </svg>
  );
}

export function ClockIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path
        fill="currentColor"
        d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 5v5.4l3.7 2.2-1 1.7L11 13.5V7z"
      />
    </svg>
  );
}

export function PinIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path
        fill="currentColor"
        d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z"
      />
    </svg>
  );
}

/** A no-entry sign: shown with the words "Fully Booked". */
export function FullIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path fill="currentColor" d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm5 11H7v-2h10z" />
    </svg>
  );
}

/** A tick in a clock face: shown with the words "Event Passed". */
export function PassedIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path
        fill="currentColor"
        d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm-1.5 14.5L6 12l1.4-1.4 3.1 3.1 6.1-6.1L18 9z"
      />
    </svg>
  );
}

export function LockIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path
        fill="currentColor"
        d="M17 9V7A5 5 0 0 0 7 7v2H5v13h14V9zm-8-2a3 3 0 0 1 6 0v2H9zm4 10.7V19h-2v-1.3a2 2 0 1 1 2 0z"
      />
    </svg>
  );
}

export function WarningIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="24" height="24">
      <path fill="currentColor" d="M1 21 12 2l11 19zm12-3v-2h-2v2zm0-4V9h-2v5z" />
    </svg>
  );
}

/** A circle with a cross: shown with the words "Booking closed". */
export function ClosedIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path
        fill="currentColor"
        fillRule="evenodd"
        d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm3.5 5.1 1.4 1.4-3.5 3.5 3.5 3.5-1.4 1.4-3.5-3.5-3.5 3.5-1.4-1.4 3.5-3.5-3.5-3.5 1.4-1.4 3.5 3.5z"
      />
    </svg>
  );
}

/** An office building: shown with the words "Corporate event". */
export function BuildingIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path
        fill="currentColor"
        fillRule="evenodd"
        d="M3 21V3h11v5h7v13h-8v-4h-3v4zM6 6v2h2V6zm4 0v2h2V6zm-4 4v2h2v-2zm4 0v2h2v-2zm6 0v2h2v-2zM6 14v2h2v-2zm4 0v2h2v-2zm6 0v2h2v-2z"
      />
    </svg>
  );
}

/** A price tag: shown beside the price or the word "Free". */
export function PriceIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path
        fill="currentColor"
        fillRule="evenodd"
        d="M2 3a1 1 0 0 1 1-1h9.6a1 1 0 0 1 .7.3l8.4 8.4a1 1 0 0 1 0 1.4l-9.6 9.6a1 1 0 0 1-1.4 0L2.3 13.3a1 1 0 0 1-.3-.7zm5 2.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z"
      />
    </svg>
  );
}

export function CheckIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path fill="currentColor" d="M9.5 16.6 4.9 12l-1.4 1.4 6 6 11-11-1.4-1.4z" />
    </svg>
  );
}

/** A circle with a tick: a Green result (retest in 1, 2 or 3 years). */
export function ResultGreenIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <circle cx="12" cy="12" r="10" fill="currentColor" />
      <path fill="#fff" d="M10.4 15.6 7 12.2l1.3-1.3 2.1 2.1 5.3-5.3L17 9z" />
    </svg>
  );
}

/** A triangle with an exclamation mark: an Amber result (repeat the test in 3 months). */
export function ResultAmberIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <path fill="currentColor" d="M12 2 1 21h22z" />
      <path fill="#000" d="M11 9h2v6h-2zm0 8h2v2h-2z" />
    </svg>
  );
}

/** A square with a cross: a Red result (see your GP). */
export function ResultRedIcon() {
  return (
    <svg aria-hidden focusable={false} className="icon" viewBox="0 0 24 24" width="20" height="20">
      <rect x="2" y="2" width="20" height="20" rx="3" fill="currentColor" />
      <path
        fill="#fff"
        d="m8.5 7 3.5 3.5L15.5 7 17 8.5 13.5 12l3.5 3.5-1.5 1.5-3.5-3.5L8.5 17 7 15.5l3.5-3.5L7 8.5z"
      />
    </svg>
  );
}
