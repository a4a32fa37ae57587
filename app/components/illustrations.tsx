/** Our own illustrations, drawn inline so they cost no extra request. */
export function HeroIllustration() {
  return (
    <svg
      className="illustration"
      viewBox="0 0 400 280"
      width="400"
      height="280"
      role="img"
      aria-label="Illustration: two men talking with a nurse at a screening event"
    >
      <rect width="400" height="280" rx="16" fill="#e3f4f2" />
      <circle cx="330" cy="60" r="34" fill="#ffdd00" opacity="0.8" />
      <path d="M0 230 Q200 170 400 220 V280 H0Z" fill="#9ad1d4" />
      <g fill="#13294b">
        <circle cx="110" cy="118" r="24" />
        <path d="M70 230c0-40 18-72 40-72s40 32 40 72z" />
      </g>
      <g fill="#00706b">
        <circle cx="200" cy="112" r="24" />
        <path d="M160 230c0-42 18-76 40-76s40 34 40 76z" />
      </g>
      <g fill="#4c2c72">
        <circle cx="290" cy="122" r="22" />
        <path d="M254 230c0-38 16-68 36-68s36 30 36 68z" />
        <rect x="280" y="170" width="20" height="6" rx="3" fill="#fff" />
        <path d="M290 160v10" stroke="#fff" strokeWidth="3" />
      </g>
    </svg>
  );
}
