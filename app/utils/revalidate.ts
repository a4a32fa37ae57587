import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * A route's `shouldRevalidate` for a page whose refusals normally leave its data alone, but which
 * reads its data again when the action's answer says `flag: true` (what the page showed changed
 * meanwhile, so the next decision is made about it as it is now).
 */
export function revalidateWhenAnswered(flag: string) {
  return ({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) => {
    const said =
      typeof actionResult === "object" && actionResult !== null && flag in actionResult
        ? (actionResult as Record<string, unknown>)[flag] === true
        : false;
    return said || defaultShouldRevalidate;
  };
}
