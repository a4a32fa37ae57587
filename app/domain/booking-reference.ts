/**
 * Booking references like "MHAT-7KQ3-9XZ2": the charity's short name and 8 characters from an
 * alphabet without look-alikes (no 0, 1, I or O), drawn from a cryptographic random source. 32
 * characters to the power 8 is about 10^12 (40 bits), so a reference cannot be guessed from another,
 * and every page that shows a booking also checks that it belongs to the person asking.
 */

export const REFERENCE_PREFIX = "MHAT";
export const REFERENCE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const REFERENCE_LENGTH = 8;

/** Fills a byte array with random values; `crypto.getRandomValues` unless a test passes its own. */
export type RandomSource = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;

const cryptoRandom: RandomSource = (bytes) => globalThis.crypto.getRandomValues(bytes);

/** A new reference, "MHAT-XXXX-XXXX". 256 is a multiple of 32, so every character is equally likely. */
export function generateBookingReference(random: RandomSource = cryptoRandom): string {
  const bytes = random(new Uint8Array(REFERENCE_LENGTH));
  const code = [...bytes].map((byte) => REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length]);
  return formatBookingReference(code.join(""));
}

function formatBookingReference(code: string): string {
  return `${REFERENCE_PREFIX}-${code.slice(0, 4)}-${code.slice(4)}`;
}

const CODE = new RegExp(`^[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$`);

/**
 * Reads a reference as a person types it: any case, with or without spaces and dashes, with or
 * without the "MHAT" in front. Gives the stored form ("MHAT-7KQ3-9XZ2"), or null when it cannot be one.
 */
export function normaliseBookingReference(typed: string): string | null {
  if (typeof typed !== "string" || typed.length > 40) return null;
  let compact = typed.toUpperCase().replace(/[\s\-–—_.]+/g, "");
  if (compact.length === REFERENCE_PREFIX.length + REFERENCE_LENGTH) {
    if (!compact.startsWith(REFERENCE_PREFIX)) return null;
    compact = compact.slice(REFERENCE_PREFIX.length);
  }
  return CODE.test(compact) ? formatBookingReference(compact) : null;
}
