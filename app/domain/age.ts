/** Screening events are for people aged 40 to 80 inclusive. */
export const MIN_AGE = 40;
export const MAX_AGE = 80;

export const AGE_MESSAGES = {
  outOfRange: "You must be between 40 and 80 years old to register.",
  noticeTitle: "Age Restriction Notice",
  errorTitle: "Age Restriction Error",
} as const;

/**
 * His age when his sample was taken: on the laboratory's sample date, or the event's day when it
 * gave none. Null without a date of birth.
 */
export function ageAtSample(
  dateOfBirth: string | null,
  sampleDate: string | null,
  eventDate: string,
): number | null {
  return dateOfBirth ? ageOn(dateOfBirth, sampleDate ?? eventDate) : null;
}

/**
 * Whole years between a date of birth and a day, both "yyyy-MM-dd". A birthday counts on the day
 * itself. Someone born on 29 February has their birthday on 1 March in other years (as in UK law).
 */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  let age = ty - by;
  const birthdayMonth = bm === 2 && bd === 29 && !isLeapYear(ty) ? 3 : bm;
  const birthdayDay = bm === 2 && bd === 29 && !isLeapYear(ty) ? 1 : bd;
  if (tm < birthdayMonth || (tm === birthdayMonth && td < birthdayDay)) age -= 1;
  return age;
}

/**
 * The day someone born on `dateOfBirth` turns `years` old, "yyyy-MM-dd" (born on 29 February: 1
 * March in other years, as in `ageOn`).
 */
export function birthdayOf(dateOfBirth: string, years: number): string {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const year = by + years;
  if (bm === 2 && bd === 29 && !isLeapYear(year)) return `${year}-03-01`;
  return `${year}-${String(bm).padStart(2, "0")}-${String(bd).padStart(2, "0")}`;
}

/** For a man too young to register today, the day he may: his 40th birthday. */
export function registerFrom(dateOfBirth: string, today: string): string | null {
  return ageOn(dateOfBirth, today) < MIN_AGE ? birthdayOf(dateOfBirth, MIN_AGE) : null;
}

export function isEligibleAge(dateOfBirth: string, today: string): boolean {
  const age = ageOn(dateOfBirth, today);
  return age >= MIN_AGE && age <= MAX_AGE;
}

export function isLeapYear(year: number) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export type DateParts = { day: string; month: string; year: string };

/** "1968-04-02" as the three fields show it ("2", "4", "1968"); empty fields for no date. */
export function datePartsOf(date: string | null): DateParts {
  const [year = "", month = "", day = ""] = date?.split("-") ?? [];
  return { day: day.replace(/^0/, ""), month: month.replace(/^0/, ""), year };
}

const MONTH_NAMES = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/**
 * A month typed as a number, or as its name or its first three letters or more ("Mar",
 * "march", "Sept"), as GOV.UK's date pattern advises accepting; null for anything else.
 */
export function readMonth(typed: string): number | null {
  const month = typed.trim().toLowerCase().replace(/\.$/, "");
  if (/^\d{1,2}$/.test(month)) return Number(month);
  if (month.length < 3) return null;
  const found = MONTH_NAMES.findIndex((name) => name.startsWith(month));
  return found === -1 ? null : found + 1;
}

/** "Year must include 4 numbers" and "Month must be …" as one sentence. */
function oneSentence(problems: string[]): string {
  return problems
    .map((problem, index) => (index === 0 ? problem : problem[0]!.toLowerCase() + problem.slice(1)))
    .join(", and ");
}

/**
 * Reads a date entered as three fields (the NHS.UK pattern) and says what is wrong, in NHS.UK
 * words, or gives "yyyy-MM-dd". Every part that can be told wrong is named at once, so that one
 * round of corrections is enough.
 */
export function readDateOfBirth(
  parts: DateParts,
  today: string,
): { ok: true; date: string } | { ok: false; message: string } {
  const day = parts.day.trim();
  const typedMonth = parts.month.trim();
  const year = parts.year.trim();
  if (!day && !typedMonth && !year) return { ok: false, message: "Enter your date of birth" };
  const missing = [!day && "day", !typedMonth && "month", !year && "year"].filter(Boolean);
  if (missing.length)
    return { ok: false, message: `Date of birth must include a ${missing.join(" and ")}` };
  const month = readMonth(typedMonth);
  // Say which parts are wrong where it can be told: "52" for 1952, the month and day swapped.
  const problems = [
    /^\d{1,3}$/.test(year) && "Year must include 4 numbers",
    (month === null || month < 1 || month > 12) && "Month must be a number from 1 to 12",
    /^\d{1,2}$/.test(day) &&
      (Number(day) < 1 || Number(day) > 31) &&
      "Day must be a number from 1 to 31",
  ].filter((problem): problem is string => Boolean(problem));
  if (problems.length) return { ok: false, message: oneSentence(problems) };
  if (!/^\d{1,2}$/.test(day) || month === null || !/^\d{4}$/.test(year)) {
    return { ok: false, message: "Date of birth must be a real date" };
  }
  const [d, m, y] = [Number(day), month, Number(year)];
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCDate() !== d || probe.getUTCMonth() !== m - 1) {
    return { ok: false, message: "Date of birth must be a real date" };
  }
  const date = `${year}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  if (date > today) return { ok: false, message: "Date of birth must be in the past" };
  if (y < 1900) return { ok: false, message: "Date of birth must be a real date" };
  return { ok: true, date };
}
