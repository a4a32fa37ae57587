/** The main navigation and its dropdowns. Hash links land on the scroll targets the spec lists. */
export interface NavItem {
  label: string;
  to: string;
  children?: { label: string; to: string }[];
}

export const mainNavigation: NavItem[] = [
  { label: "Home", to: "/" },
  {
    label: "About Us",
    to: "/about-us",
    children: [
      { label: "About MHAT", to: "/about-us#about-the-charity" },
      { label: "Our Team", to: "/about-us#our-team" },
      { label: "Our Support", to: "/about-us#our-supporters" },
    ],
  },
  {
    label: "Events",
    to: "/events",
    children: [
      { label: "Community", to: "/events#community" },
      { label: "Freemasons", to: "/events#freemason" },
      { label: "Corporate", to: "/events#corporate" },
      { label: "Speaker Requests", to: "/events#speaker" },
    ],
  },
  {
    label: "Information Hub",
    to: "/information-hub",
    children: [
      { label: "Prostate Cancer", to: "/information-hub#prostate-cancer" },
      { label: "Men's Health", to: "/information-hub#mens-health" },
      { label: "Health in the Workplace", to: "/information-hub#health-in-workplace" },
      { label: "Education", to: "/information-hub#education" },
      { label: "Resources", to: "/information-hub#resources" },
    ],
  },
  {
    label: "News",
    to: "/news",
    children: [
      { label: "Patient Journey", to: "/news#patient-journey" },
      { label: "Latest News", to: "/news#latest-news" },
      { label: "Newsletters", to: "/news#newsletter" },
    ],
  },
];

/** Ids that pages must carry so that the links above land somewhere. */
export const SCROLL_TARGETS = [
  "freemason",
  "community",
  "corporate",
  "speaker",
  "prostate-cancer",
  "mens-health",
  "resources",
  "education",
  "health-in-workplace",
  "about-the-charity",
  "our-team",
  "our-supporters",
] as const;

/** The footer's quick links: the main pages, then the policies and statements. */
export const footerLinks: { label: string; to: string }[] = [
  { label: "Home", to: "/" },
  { label: "About Us", to: "/about-us" },
  { label: "Events", to: "/events" },
  { label: "Information Hub", to: "/information-hub" },
  { label: "News", to: "/news" },
  { label: "Refund Policy", to: "/refund-policy" },
  { label: "Privacy Notice", to: "/privacy-notice" },
  { label: "Accessibility Statement", to: "/accessibility-statement" },
];
