import { z } from "zod";
import { optionalMultilineText } from "./fields";
import { keptPsaValue, psaValueProblem, RESULT_FLAGS } from "./psa-flag";

/**
 * The clinician's forms on a result's page: release (the flag, the retest interval for Green,
 * comments) and correction of a released result (the same, the value, and why).
 */

import {
  CORRECTION_REASONS,
  MAX_COMMENTS,
  RELEASE_MESSAGES,
  RETEST_YEARS,
  type CorrectionReason,
} from "./result-release-options";

export * from "./result-release-options";

const REASON_KEYS = Object.keys(CORRECTION_REASONS) as [CorrectionReason, ...CorrectionReason[]];

const flagField = z.enum(RESULT_FLAGS, { error: RELEASE_MESSAGES.flag });

/**
 * Refusal when the result changed after the clinician opened it: his decision was about a
 * version that is no longer there.
 */
export const CORRECTED_SINCE_OPENED =
  "This result changed after you opened it (someone else corrected it, or his date of birth was corrected). It is shown below as it is now, and the form starts again from it: make your correction again if it is still needed.";

export const CHANGED_SINCE_OPENED =
  "This result changed after you opened it (a new file was imported, his date of birth was corrected, or someone else changed it). It is shown below as it is now: check it, and choose the flag again. What you typed is kept.";

/**
 * What stays of a form refused because its result changed. A release keeps what was typed, not the
 * flag and retest interval, which were chosen for the result as it was. A correction keeps only
 * its reason: its fields started from the result as it was, so keeping them would put back what
 * someone else has since corrected; they start again from the result as it is now.
 */
export function keptWhenChanged(values: Record<string, string>): Record<string, string> {
  if (values.intent === "correct") return values.reason ? { reason: values.reason } : {};
  const chosen = new Set(["flag", "retestYears", "seen"]);
  return Object.fromEntries(Object.entries(values).filter(([name]) => !chosen.has(name)));
}

const decision = {
  /** The result's `updatedAt` (ISO) as the page showed it: a hidden field. Missing: "". */
  seen: z.string().optional(),
  flag: flagField,
  retestYears: z.enum(["", ...RETEST_YEARS], { error: RELEASE_MESSAGES.retest }).optional(),
  comments: optionalMultilineText(MAX_COMMENTS),
};

/** Green needs its retest interval; Amber and Red have none (whatever was sent is dropped). */
function withRetest<T extends { flag: (typeof RESULT_FLAGS)[number]; retestYears?: string }>(
  value: T,
  ctx: z.RefinementCtx,
) {
  if (value.flag === "green" && !value.retestYears)
    ctx.addIssue({ code: "custom", path: ["retestYears"], message: RELEASE_MESSAGES.retest });
}

function retestOf(value: { flag: string; retestYears?: string }) {
  return value.flag === "green" && value.retestYears ? Number(value.retestYears) : null;
}

export const releaseSchema = z
  .object(decision)
  .superRefine(withRetest)
  .transform((value) => ({
    flag: value.flag,
    retestYears: retestOf(value),
    comments: value.comments,
    seen: value.seen ?? "",
  }));

export type ReleaseDecision = z.output<typeof releaseSchema>;

export const correctionSchema = z
  .object({
    ...decision,
    psaValue: z
      .string({ error: "Enter the PSA value, like 1.23" })
      .trim()
      .superRefine((text, ctx) => {
        const problem = psaValueProblem(text);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    reason: z.enum(REASON_KEYS, { error: RELEASE_MESSAGES.reason }),
  })
  .superRefine(withRetest)
  .transform((value) => ({
    psaValue: keptPsaValue(value.psaValue),
    flag: value.flag,
    retestYears: retestOf(value),
    comments: value.comments,
    reason: value.reason,
    seen: value.seen ?? "",
  }));

export type ResultCorrection = z.output<typeof correctionSchema>;

/** "The flag stands": only the version the page showed. */
export const confirmFlagSchema = z
  .object({ seen: decision.seen })
  .transform((value) => ({ seen: value.seen ?? "" }));

export interface ResultFields {
  psaValue: string | null;
  flag: (typeof RESULT_FLAGS)[number] | null;
  retestYears: number | null;
  comments: string | null;
}

/** The names of the fields a correction changes (for the audit log: names only, never values). */
export function changedFields(before: ResultFields, after: ResultFields): (keyof ResultFields)[] {
  const keys: (keyof ResultFields)[] = ["psaValue", "flag", "retestYears", "comments"];
  return keys.filter((key) => (before[key] ?? null) !== (after[key] ?? null));
}

/** Whether the result is still the version the page showed (its `updatedAt`, as an ISO string). */
export function isSeenVersion(updatedAt: Date, seen: string): boolean {
  return seen !== "" && updatedAt.toISOString() === seen;
}

export type ReleaseRefusal = "already-released" | "no-value" | "no-sample";

/**
 * Why a result cannot be released, or null when it can: once only, with a value, and only for a
 * booking whose sample was taken at check-in (a result for an appointment that has not happened
 * is never shown to the patient).
 */
export function releaseRefusal(
  result: { releasedAt: Date | null; psaValue: string | null },
  booking: { sampleTakenAt: Date | null },
): ReleaseRefusal | null {
  if (result.releasedAt) return "already-released";
  if (!result.psaValue) return "no-value";
  if (!booking.sampleTakenAt) return "no-sample";
  return null;
}

/**
 * The `updatedAt` a write sets: now, but always after the version it replaces, so a page opened
 * before the write never matches it, even when two writes fall in the same millisecond.
 */
export function nextUpdatedAt(previous: Date, now: Date): Date {
  return new Date(Math.max(now.getTime(), previous.getTime() + 1));
}
