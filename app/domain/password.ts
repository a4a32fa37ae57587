import { createRequire } from "node:module";
import type * as ZxcvbnCore from "@zxcvbn-ts/core";
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import type * as ZxcvbnCommon from "@zxcvbn-ts/language-common";
import type * as ZxcvbnEnglish from "@zxcvbn-ts/language-en";
import { organisation } from "#app/content/organisation";

// The lengths live where pages can import them without this file's dictionaries.
import { PASSWORD_MAX, PASSWORD_MIN } from "./form-basics";
export { PASSWORD_MAX, PASSWORD_MIN };

export const PASSWORD_MESSAGES = {
  missing: "Enter a password",
  tooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  tooLong: `Password must be ${PASSWORD_MAX} characters or fewer`,
  tooCommon:
    "This password is too easy to guess. Avoid common passwords, names and patterns like 12345678. Three or four unrelated words work well.",
  doNotMatch: "Passwords do not match",
  resetLinkExpired:
    "This link has expired or has already been used. Ask for a new one from the sign-in page.",
} as const;

let estimator: ZxcvbnFactory | undefined;

/**
 * zxcvbn's estimate of how many guesses a password would take, against a kept dictionary of
 * common passwords, names and English words, plus words a guesser would try first for us.
 * Loaded on the first password set, not at start: the dictionaries hold about 23 MB of heap, which
 * V8 also multiplies in the garbage it lets build up under load (D-149 to D-152 in DECISIONS.md).
 * `require` keeps this synchronous; the packages ship CommonJS builds beside their modules.
 */
function passwordEstimator(): ZxcvbnFactory {
  if (!estimator) {
    const require = createRequire(import.meta.url);
    const core = require("@zxcvbn-ts/core") as typeof ZxcvbnCore;
    const common = require("@zxcvbn-ts/language-common") as typeof ZxcvbnCommon;
    const english = require("@zxcvbn-ts/language-en") as typeof ZxcvbnEnglish;
    estimator = new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...english.dictionary },
      graphs: common.adjacencyGraphs,
      translations: english.translations,
    });
  }
  return estimator;
}

/** Words an attacker would add for this site: the charity's names and what it does. */
const SITE_WORDS = [
  organisation.name,
  organisation.shortName,
  "men's health",
  "prostate",
  "screening",
  "psa",
];

/** Below this zxcvbn score (0–4) a password falls to an online guessing attack or a quick offline one. */
const MIN_SCORE = 2;

/**
 * Why a password is refused, or null when it is acceptable. `personalWords` are the person's own
 * name and e-mail address, which a guesser would try first.
 */
export function passwordProblem(password: string, personalWords: string[] = []): string | null {
  if (password.length === 0) return PASSWORD_MESSAGES.missing;
  if ([...password].length < PASSWORD_MIN) return PASSWORD_MESSAGES.tooShort;
  if (password.length > PASSWORD_MAX) return PASSWORD_MESSAGES.tooLong;
  const words = [...SITE_WORDS, ...personalWords.filter((word) => word.trim().length >= 3)];
  return passwordEstimator().check(password, words).score < MIN_SCORE
    ? PASSWORD_MESSAGES.tooCommon
    : null;
}
