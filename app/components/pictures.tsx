import { initials } from "#app/content/team";

const PALETTES = [
  ["#13294b", "#2ec4b6", "#e3f4f2"],
  ["#00706b", "#ffdd00", "#fbf7ef"],
  ["#1d3b66", "#9ad1d4", "#f3f5f8"],
  ["#4c2c72", "#2ec4b6", "#f1ecf7"],
  ["#13294b", "#f4a259", "#fbf7ef"],
] as const;

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) >>> 0;
  return value;
}

/**
 * An abstract picture drawn from a seed: our own, light, and marked as a placeholder until the
 * charity supplies real photographs.
 */
export function PlaceholderImage({
  seed,
  alt,
  width = 640,
  height = 360,
}: {
  seed: string;
  /** Empty for a decorative picture. */ alt: string;
  width?: number;
  height?: number;
}) {
  const h = hash(seed);
  const [dark, accent, light] = PALETTES[h % PALETTES.length]!;
  const cx = 20 + (h % 60);
  const cy = 25 + ((h >> 3) % 50);
  return (
    <svg
      className="placeholder-image"
      {...(alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true, focusable: false })}
      viewBox="0 0 160 90"
      width={width}
      height={height}
      preserveAspectRatio="xMidYMid slice"
    >
      <rect width="160" height="90" fill={light} />
      <circle cx={cx + 60} cy={cy} r={38 + (h % 12)} fill={accent} opacity="0.55" />
      <circle cx={cx} cy={90 - cy / 2} r={26 + ((h >> 5) % 14)} fill={dark} opacity="0.85" />
      <path
        d={`M0 ${70 - (h % 15)} Q 80 ${40 + (h % 30)} 160 ${65 - ((h >> 2) % 20)} V90 H0 Z`}
        fill={dark}
        opacity="0.25"
      />
    </svg>
  );
}

/** A round initials avatar, standing in for a photograph of a person. */
export function InitialsAvatar({ name, size = 64 }: { name: string; size?: number }) {
  const [dark] = PALETTES[hash(name) % PALETTES.length]!;
  return (
    <svg
      className="avatar"
      width={size}
      height={size}
      viewBox="0 0 64 64"
      aria-hidden
      focusable={false}
    >
      <circle cx="32" cy="32" r="32" fill={dark} />
      <text
        x="32"
        y="32"
        dy="0.35em"
        textAnchor="middle"
        fill="#fff"
        fontSize="24"
        fontWeight="700"
      >
        {initials(name)}
      </text>
    </svg>
  );
}

/** A text tile standing in for a partner's logo. */
export function LogoTile({ name }: { name: string }) {
  return <span className="logo-tile">{name}</span>;
}
