/** The spec's cut-off lengths for expandable cards. */
export const TRUNCATE = {
  testimonial: 300,
  aboutCard: 300,
  /** About cards offer Show More only when longer than this. */
  aboutCardToggleAbove: 250,
  getInvolved: 250,
  eventNameOnDetail: 24,
} as const;

/** Cuts text at a word boundary no later than `limit` characters, adding an ellipsis. */
export function truncateText(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  const slice = text.slice(0, limit);
  const lastSpace = slice.lastIndexOf(" ");
  const cut = lastSpace > limit * 0.6 ? slice.slice(0, lastSpace) : slice;
  return { text: `${cut.replace(/[\s,.;:]+$/, "")}…`, truncated: true };
}
