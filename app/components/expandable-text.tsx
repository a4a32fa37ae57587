import { useId, useState, type ReactNode } from "react";
import { truncateText } from "#app/domain/truncate";

/**
 * Text cut at `limit` characters with a Show More / Show Less toggle. Without JavaScript the
 * full text shows instead (the no-js-only copy), so nothing is out of anyone's reach.
 */
export function ExpandableText({
  text,
  limit,
  moreLabel = "Show More",
  lessLabel = "Show Less",
  subject,
}: {
  text: string;
  limit: number;
  moreLabel?: string;
  lessLabel?: string;
  /** Names the card for screen readers, e.g. "Show More about Who We Are". */
  subject: string;
}) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const { text: short, truncated } = truncateText(text, limit);
  if (!truncated) return <p>{text}</p>;
  return (
    <div className="expandable">
      <p className="no-js-only">{text}</p>
      <p id={id} className="js-only">
        {expanded ? text : short}
      </p>
      <ToggleButton
        expanded={expanded}
        controls={id}
        onToggle={() => setExpanded(!expanded)}
        subject={subject}
      >
        {expanded ? lessLabel : moreLabel}
      </ToggleButton>
    </div>
  );
}

export function ToggleButton({
  expanded,
  controls,
  onToggle,
  subject,
  children,
}: {
  expanded: boolean;
  controls: string;
  onToggle: () => void;
  subject: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="button--link button js-only"
      aria-expanded={expanded}
      aria-controls={controls}
      onClick={onToggle}
    >
      {children}
      <span className="visually-hidden"> about {subject}</span>
    </button>
  );
}
