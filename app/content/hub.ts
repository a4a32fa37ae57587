import { organisation } from "./organisation";

/** A link that ends a section: a page of the site (a path) or a mail address (mailto:). */
export interface HubLink {
  text: string;
  href: string;
}

export interface HubArticle {
  id: "prostate-diseases-and-prostate-cancer" | "mens-health" | "health-workplace";
  /** The information-hub section this card sits in (a scroll target). */
  anchor: string;
  title: string;
  description: string;
  sections: { heading: string; paragraphs: string[]; links?: HubLink[] }[];
}

export const hubArticles: HubArticle[] = [
  {
    id: "prostate-diseases-and-prostate-cancer",
    anchor: "prostate-cancer",
    title: "Prostate diseases and prostate cancer",
    description:
      "What the prostate does, the common conditions that affect it, and how the PSA blood test helps find cancer early.",
    sections: [
      {
        heading: "What is the prostate?",
        paragraphs: [
          "The prostate is a small gland, about the size of a walnut, that sits below the bladder and surrounds the tube that carries urine out of the body. It helps make semen.",
          "It tends to grow larger with age. By the age of 60, many men have some enlargement, which is usually not cancer.",
        ],
      },
      {
        heading: "Common prostate conditions",
        paragraphs: [
          "Benign prostatic enlargement can cause a weak flow, needing to pass urine more often, or getting up at night. It is common and treatable.",
          "Prostatitis is inflammation of the prostate. It can be caused by infection and can cause pain and a raised PSA level for a while.",
          "Prostate cancer is the most common cancer in men in the UK. About 57,000 men are diagnosed and about 13,000 die from it each year. Early prostate cancer usually causes no symptoms at all.",
        ],
      },
      {
        heading: "The PSA blood test",
        paragraphs: [
          "PSA (prostate-specific antigen) is a protein made by the prostate. A small amount passes into the blood. A raised level can be a sign of cancer, but also of enlargement, infection or recent exercise.",
          "The NHS starts offering screening conversations at 50, and men at higher risk (for example Black men, or men whose father or brother had prostate cancer) should be offered a test from 45 at the latest. Our events are for men aged 40 to 80.",
          "We use age-related thresholds: a result at or above 1.00 ng/ml for men in their forties, or at or above 2.00 ng/ml for men in their fifties, is looked at more closely. About 8% of the men we test have an abnormal result, and we guide each of them to follow-up within six months.",
        ],
      },
      {
        heading: "What your result means",
        paragraphs: [
          "Green: your PSA is in the normal range for your age. We suggest a retest in 1, 2 or 3 years depending on your risk.",
          "Amber: your PSA is slightly raised. Please repeat the test in 3 months.",
          "Red: your PSA is raised. Please see your GP, who can arrange further tests.",
          "About 1 in 4 men with an abnormal PSA result are found to have cancer. Most raised results have another cause.",
        ],
      },
    ],
  },
  {
    id: "mens-health",
    anchor: "mens-health",
    title: "Men's health",
    description:
      "Why men see their doctor less often, and the simple checks that make the biggest difference after 40.",
    sections: [
      {
        heading: "Men and their health",
        paragraphs: [
          "Around 70,000 men die prematurely each year in the UK. Men are less likely than women to visit a GP, and more likely to wait until a problem is serious.",
          "Many of the conditions that shorten men's lives, including heart disease, type 2 diabetes and several cancers, can be found early with simple checks.",
        ],
      },
      {
        heading: "Checks worth having after 40",
        paragraphs: [
          "Blood pressure, cholesterol and blood sugar: the NHS Health Check offers these every five years from 40 to 74 in England.",
          "A PSA blood test, after a conversation about what the result might mean for you.",
          "Skin checks: look out for a new mole or one that changes shape, size or colour. Some of our events include a skin check.",
        ],
      },
      {
        heading: "Looking after yourself",
        paragraphs: [
          "Stay active, keep to a healthy weight, drink within the recommended limits and stop smoking. Talk to someone if you are struggling with your mood: it is a sign of strength, not weakness.",
        ],
      },
    ],
  },
  {
    id: "health-workplace",
    anchor: "health-in-workplace",
    title: "Health in the workplace",
    description:
      "How employers can help their staff stay well, including on-site PSA screening for men aged 40 to 80.",
    sections: [
      {
        heading: "Why it matters to employers",
        paragraphs: [
          "Men of working age often put off health checks because appointments clash with work. Bringing a screening session to the workplace removes that barrier.",
          "A healthier workforce takes fewer sick days, and staff value an employer that looks after them.",
        ],
      },
      {
        heading: "Screening at work",
        paragraphs: [
          "We run corporate screening sessions for a minimum of 40 employees per session (smaller groups are possible in London). Each man has a private appointment with a nurse, and his result goes to him alone, never to his employer.",
        ],
        links: [
          {
            text: "Find out more on our corporate screening page",
            href: "/events/corporate-screening",
          },
          {
            text: `E-mail ${organisation.emails.events} to talk about a date`,
            href: `mailto:${organisation.emails.events}`,
          },
        ],
      },
    ],
  },
];

export function findHubArticle(id: string | undefined) {
  return hubArticles.find((article) => article.id === id);
}

/**
 * "Research and Data", the spec's three items: an external report, our 2023 statistics and a
 * systematic review. The two external ones are public bodies' pages; the charity checks them before
 * publication like every other link here.
 */
export const researchItems: {
  title: string;
  description: string;
  href: string;
  external: boolean;
}[] = [
  {
    title: "The UK screening committee's view on prostate cancer screening",
    description:
      "The UK National Screening Committee's report on whether to screen all men for prostate cancer, and why it is looked at again.",
    href: "https://view-health-screening-recommendations.service.gov.uk/prostate-cancer/",
    external: true,
  },
  {
    title: "2023 screening statistics",
    description: "2,397 tests, 168 abnormal results and 26 cancers found, shown as charts.",
    href: "/information-hub/statistics",
    external: false,
  },
  {
    title: "A systematic review of prostate cancer screening",
    description:
      "The Cochrane review that brings together the large trials of PSA screening: what it finds, and what it cannot yet say.",
    href: "https://www.cochranelibrary.com/cdsr/doi/10.1002/14651858.CD004720.pub3/full",
    external: true,
  },
];

/** Our own research pages, linked beside the three items above. */
export const ownResearch = [
  { title: "Our research summary 2023", to: "/about-us/research" },
  { title: "PSA testing for men over 80", to: "/information-hub/elderly-psa-testing" },
] as const;

/** Eight partner organisations (invented). Websites are shown as text until the real ones are added. */
export const resources = [
  {
    title: "Prostate Support Network",
    website: "prostate-support.example.org",
    phone: "01632 960 101",
  },
  {
    title: "Men's Sheds of the East",
    website: "mens-sheds-east.example.org",
    phone: "01632 960 102",
  },
  {
    title: "Cancer Helpline Anglia",
    website: "cancer-helpline.example.org",
    phone: "01632 960 103",
  },
  { title: "Carers Together", website: "carers-together.example.org", phone: "01632 960 104" },
  {
    title: "Heart Health Essex",
    website: "heart-health-essex.example.org",
    phone: "01632 960 105",
  },
  {
    title: "Talking Men (mental health)",
    website: "talking-men.example.org",
    phone: "01632 960 106",
  },
  {
    title: "Black Men's Health Forum East",
    website: "bmhf-east.example.org",
    phone: "01632 960 107",
  },
  {
    title: "Diabetes Prevention Suffolk",
    website: "diabetes-prevention.example.org",
    phone: "01632 960 108",
  },
] as const;
