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
