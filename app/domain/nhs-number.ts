export const NHS_MESSAGES = {
  onlyDigits: "Please enter only digits (max 10).",
  tenDigits: "NHS number must be 10 digits",
  checkDigit:
    "Enter a valid NHS number. Check the 10 digits on your NHS letter, prescription or the NHS App.",
} as const;

/**
 * Tidies what was typed: spaces are dropped quietly (numbers are printed "943 476 5919"); any other
 * character, or more than 10 digits, earns the spec's message.
 */
export function cleanNhsNumber(typed: string): { digits: string; stripped: boolean } {
  const withoutSpaces = typed.replace(/\s+/g, "");
  const digits = withoutSpaces.replace(/\D/g, "");
  return { digits: digits.slice(0, 10), stripped: digits !== withoutSpaces || digits.length > 10 };
}

/** The NHS modulus-11 check: weights 10 to 2 on the first nine digits; a check value of 10 is never valid. */
export function hasValidCheckDigit(nhsNumber: string): boolean {
  if (!/^\d{10}$/.test(nhsNumber)) return false;
  const sum = [...nhsNumber.slice(0, 9)].reduce(
    (total, digit, index) => total + Number(digit) * (10 - index),
    0,
  );
  const check = 11 - (sum % 11);
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === Number(nhsNumber[9]);
}

/** Validates an optional NHS number: empty is fine; otherwise 10 digits that pass the check. */
export function validateNhsNumber(
  typed: string,
): { ok: true; value: string | null } | { ok: false; message: string } {
  if (!typed.trim()) return { ok: true, value: null };
  const { digits, stripped } = cleanNhsNumber(typed);
  if (stripped) return { ok: false, message: NHS_MESSAGES.onlyDigits };
  if (digits.length !== 10) return { ok: false, message: NHS_MESSAGES.tenDigits };
  if (!hasValidCheckDigit(digits)) return { ok: false, message: NHS_MESSAGES.checkDigit };
  return { ok: true, value: digits };
}

/** "943 476 5919", as NHS numbers are printed and shown (stored without spaces); anything else as it is. */
export function formatNhsNumber(nhsNumber: string | null): string | null {
  if (nhsNumber === null) return null;
  return /^\d{10}$/.test(nhsNumber)
    ? `${nhsNumber.slice(0, 3)} ${nhsNumber.slice(3, 6)} ${nhsNumber.slice(6)}`
    : nhsNumber;
}
