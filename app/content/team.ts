export interface TeamMember {
  name: string;
  title: string;
  group: "Executive Team" | "Trustees / Clinical Advisory Board";
}

/** Invented people; their pictures are initials avatars until real photos are supplied. */
export const team: TeamMember[] = [
  { name: "Dr Alistair Penrose", title: "Founder and Clinical Director", group: "Executive Team" },
  { name: "Helen Marchetti", title: "Chief Operating Officer", group: "Executive Team" },
  { name: "Dr Priya Ramanathan", title: "Research Officer", group: "Executive Team" },
  { name: "Trevor Osei", title: "Finance Director", group: "Executive Team" },
  {
    name: "Margaret Ellery",
    title: "Chair of Trustees",
    group: "Trustees / Clinical Advisory Board",
  },
  { name: "Colin Fairbrother", title: "Treasurer", group: "Trustees / Clinical Advisory Board" },
  {
    name: "Dr Nnamdi Okonkwo",
    title: "Consultant Urologist, Clinical Advisor",
    group: "Trustees / Clinical Advisory Board",
  },
  {
    name: "Sister Joanne Tulley",
    title: "Lead Nurse Advisor",
    group: "Trustees / Clinical Advisory Board",
  },
  {
    name: "Dr Fiona Lindqvist",
    title: "General Practitioner, Clinical Advisor",
    group: "Trustees / Clinical Advisory Board",
  },
  {
    name: "Bernard Achterberg",
    title: "Trustee, patient representative",
    group: "Trustees / Clinical Advisory Board",
  },
];

export function initials(name: string): string {
  const words = name
    .replace(/^(Dr|Sister|Mr|Mrs|Ms)\s+/i, "")
    .split(/\s+/)
    .filter(Boolean);
  return (
    (words[0]?.[0] ?? "") + (words.length > 1 ? (words.at(-1)?.[0] ?? "") : "")
  ).toUpperCase();
}
