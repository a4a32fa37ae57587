/** A postal address, one line under another, as the event page and the confirmation show it. */
export function AddressLines({ lines }: { lines: readonly string[] }) {
  return (
    <address>
      {lines.map((line) => (
        <span key={line}>
          {line}
          <br />
        </span>
      ))}
    </address>
  );
}

/** A link to the place on OpenStreetMap (`mapLink`): it works without scripts, and opens a phone's map. */
export function MapLinkToPlace({ href }: { href: string }) {
  return (
    <a href={href} rel="noopener noreferrer">
      See the place on a map<span className="visually-hidden"> (OpenStreetMap)</span>
    </a>
  );
}
