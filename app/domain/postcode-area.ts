/**
 * A UK postcode typed into the event finder's "Town or postcode": the whole one ("CO4 3JL"), or
 * its first half ("CO4"). Events are matched by the text of their address, which a man's own
 * postcode seldom shares; its area (the letters it starts with: "CO", Colchester) finds the
 * events near him.
 */
export interface PostcodeArea {
  /** the postcode as typed, tidied: "CO4 3JL" or "CO4" */
  postcode: string;
  /** its area's letters: "CO" */
  area: string;
}

// Outward code: 1-2 letters, a digit, then a digit or letter (EC1A, W1D, CO4, M1); inward: 9AA.
const POSTCODE = /^([A-Z]{1,2})([0-9][0-9A-Z]?)(?:\s*([0-9][A-Z]{2}))?$/;

export function postcodeArea(location: string | undefined): PostcodeArea | null {
  const tidy = location?.trim().toUpperCase().replace(/\s+/g, " ");
  if (!tidy) return null;
  const match = POSTCODE.exec(tidy);
  if (!match) return null;
  const [, area, district, inward] = match as unknown as [string, string, string, string?];
  return { postcode: inward ? `${area}${district} ${inward}` : `${area}${district}`, area };
}
