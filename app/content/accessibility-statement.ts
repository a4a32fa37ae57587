import type { ContentDocument } from "./document";
import { organisation } from "./organisation";

const { name, shortName, emails, phones } = organisation;

/**
 * The accessibility statement, after the UK public-sector model (what works, what does not yet,
 * how to tell us, and where to go if we do not answer well). It must stay true to how the site
 * is built and tested: WCAG 2.2 AA, axe and the Nu HTML checker on every page, keyboard and
 * no-JavaScript journeys, and a 375-pixel phone with text at 200%.
 */
export const accessibilityStatement: ContentDocument = {
  title: "Accessibility statement",
  description: `How accessible the ${name} website is, what we know does not work yet, and how to tell us about a problem.`,
  lede: `This statement covers this website, run by the ${name} (${shortName}). We want as many people as possible to be able to use it.`,
  updated: "24 November 2026",
  sections: [
    {
      id: "using-this-website",
      heading: "Using this website",
      blocks: [
        "You should be able to:",
        {
          list: [
            "make the text up to twice as large, even on a phone, without having to scroll sideways to read it",
            "use every page with a keyboard alone, and see clearly where you are on the page",
            "find an event, book, fill in the consent form and pay with JavaScript turned off: every form works without it",
            "use a screen reader: pages have headings, labelled form fields, and error messages that are read out",
            "read text easily: body text has a contrast ratio of at least 7 to 1 with its background",
            "understand results and booking states without colour: each result has a word and a symbol as well, and each booking's state is written in words",
          ],
        },
        "We have written the site in plain English, for readers of all ages.",
      ],
    },
    {
      id: "how-accessible",
      heading: "How accessible this website is",
      blocks: [
        "We know some parts are not fully accessible:",
        {
          list: [
            "The maps on event pages can be hard to use with a keyboard or a screen reader. Every event's full address is always written next to its map.",
            "Paying with PayPal happens on PayPal's buttons and pages, which PayPal runs. If you cannot use them, call us and we will help you book.",
            "The staff pages that our own team use are built for larger screens.",
            "We have not yet had the site tested by an independent expert or by screen-reader users.",
          ],
        },
      ],
    },
    {
      id: "other-formats",
      heading: "Information in another format",
      blocks: [
        [
          "If you need something on this website in another format, such as large print, easy read or a phone call instead, e-mail ",
          { text: emails.info, href: `mailto:${emails.info}` },
          " or call ",
          { text: phones.general.display, href: `tel:${phones.general.tel}` },
          ". We will reply within 5 working days.",
        ],
        [
          "To book by phone, call our booking helpline on ",
          { text: phones.booking.display, href: `tel:${phones.booking.tel}` },
          ".",
        ],
      ],
    },
    {
      id: "reporting-problems",
      heading: "Reporting a problem with this website",
      blocks: [
        [
          "We are always looking to improve. If you find a problem that is not listed here, or you think we are not meeting the standard, please e-mail ",
          { text: emails.info, href: `mailto:${emails.info}` },
          ". Tell us the page's address and what went wrong, and we will reply within 5 working days.",
        ],
      ],
    },
    {
      id: "enforcement",
      heading: "Enforcement procedure",
      blocks: [
        "We are a charity, not a public body, but we follow the rules set for public sector websites, the Public Sector Bodies (Websites and Mobile Applications) (No. 2) Accessibility Regulations 2018. The Equality and Human Rights Commission (EHRC) is responsible for enforcing them.",
        [
          "If you are not happy with how we respond to your complaint, contact the ",
          {
            text: "Equality Advisory and Support Service (EASS)",
            href: "https://www.equalityadvisoryservice.com/",
          },
          ".",
        ],
      ],
    },
    {
      id: "technical-information",
      heading: "Technical information about this website's accessibility",
      blocks: [
        "We are committed to making this website accessible in line with the accessibility regulations above.",
        'This website is partially compliant with the Web Content Accessibility Guidelines (WCAG) version 2.2, level AA, because of the parts listed under "How accessible this website is". WCAG 2.2 AA is the standard we build every page to.',
      ],
    },
    {
      id: "how-we-tested",
      heading: "How we tested this website",
      blocks: [
        "We test the website each time we change it, with automatic tests that:",
        {
          list: [
            "check every page, and every error message on our forms, with the axe accessibility checker",
            "check every page's HTML with the Nu HTML Checker",
            "book a test using only a keyboard",
            "book a test with JavaScript turned off",
            "open every page on a phone-sized screen with the text at twice its size, and on a computer zoomed to 400%, and check that nothing needs sideways scrolling",
          ],
        },
        "This statement was prepared on 24 November 2026. It was last reviewed on the same date.",
      ],
    },
  ],
};
