import type { ContentDocument } from "./document";
import { organisation, postalAddress } from "./organisation";

const { name, shortName, charityNumber, emails, phones } = organisation;

/** Where a person downloads or deletes what we hold about them (built by the My data page). */
export const MY_DATA_PATH = "/my-data";

/**
 * The privacy notice (UK GDPR Articles 13 and 14): who we are, what we hold and why, who sees it,
 * how long we keep it, and the person's rights. The retention sentences describe settings by their
 * effect (consent answers for a set period, released results for the clinic's retention period),
 * so they stay true when the charity changes the periods.
 */
export const privacyNotice: ContentDocument = {
  title: "Privacy notice",
  description: `What personal information the ${name} keeps when you book a PSA test, why, who sees it, how long we keep it and your rights.`,
  lede: `This notice explains what information we keep about you when you use this website or come to one of our screening events, why we keep it, and what you can do about it.`,
  updated: "24 November 2026",
  sections: [
    {
      id: "who-we-are",
      heading: "Who we are",
      blocks: [
        `The ${name} (${shortName}) is a registered charity (number ${charityNumber}). Our address is ${postalAddress()}.`,
        `We decide how your information is used, so in data protection law we are its "controller".`,
        [
          "For any question about your information, e-mail ",
          { text: emails.info, href: `mailto:${emails.info}` },
          ` or call ${phones.general.label.toLowerCase()} on `,
          { text: phones.general.display, href: `tel:${phones.general.tel}` },
          ".",
        ],
      ],
    },
    {
      id: "what-we-keep",
      heading: "What we keep about you",
      blocks: [
        {
          list: [
            "Your account: your name, your e-mail address and your password. We keep the password only in a scrambled form that nobody, including our staff, can read.",
            "Your personal details: your date of birth, phone number, home address, billing address, and, if you give them, your gender, ethnicity and occupation.",
            "Your NHS number, if you give it. Some laboratories need it to test a sample.",
            "Your bookings: which event and time you chose, your booking reference, whether you came, and the number on your sample.",
            "Your answers to the questions on the consent form (about your PSA history and your family), whether you agreed to share your result with your GP, and when you agreed.",
            "Your PSA results, with the nurse's or doctor's comments. If a result is ever corrected, we keep the earlier version too, as a record of the correction.",
            "If you join the waiting list of a fully booked event: which event, when you joined, and any place we offered you and until when.",
            "Your payments: the amount, whether it was paid or refunded, and PayPal's reference for it. PayPal takes your card or account details; we never see them.",
            "Copies of the e-mails we send you. These never contain your answers, your results or your NHS number.",
            "If you write to us through the contact form, or join our newsletter: your name, e-mail address, phone number and message.",
            "Records that keep the site safe: when you signed in, from which internet address and with which browser, and failed attempts to sign in.",
            "A record of each time a member of our staff looks at your personal details or your results: who looked, when and from where.",
          ],
        },
        "Your answers, your results and your NHS number are health information, which the law protects with extra care. We never put them in a web address, an e-mail or our system logs.",
      ],
    },
    {
      id: "why-we-keep-it",
      heading: "Why we keep it, and the law that allows it",
      blocks: [
        {
          list: [
            "To run your account, book your test, send you your booking details and a reminder before your appointment, take your payment and give you your result. The law allows this because you asked us to provide the test (UK GDPR Article 6(1)(b), a contract).",
            "To test your sample, read your result and advise you on what to do next, we use your health information. We do this only with your explicit consent, which you give on the consent form before each test (UK GDPR Article 6(1)(a) and Article 9(2)(a)).",
            "To send you our newsletter, only if you asked for it and confirmed by e-mail (your consent, Article 6(1)(a)). Every newsletter has a link to stop it.",
            "To answer your enquiries, keep the site and your account safe, and check how our staff use your information (our legitimate interests, Article 6(1)(f)).",
            "To keep the records of payments and refunds that charity and tax law require (a legal obligation, Article 6(1)(c)).",
          ],
        },
        "You can withdraw your consent at any time. This does not undo what we did with it before, and without it we cannot test a sample.",
        "We do not sell your information, use it for advertising, or make decisions about you by computer alone.",
      ],
    },
    {
      id: "who-we-share-with",
      heading: "Who we share it with",
      blocks: [
        {
          list: [
            "The laboratory that tests your sample, named on your event's page. It receives your booking reference, name, date of birth, NHS number and sample number, and sends us the result.",
            "PayPal, if you pay online. PayPal receives what it needs to take the payment and is responsible for it under its own privacy notice.",
            "Your GP practice, only if you agreed to this on the consent form.",
            "The companies that host this website and deliver our e-mail, who act only on our instructions.",
          ],
        },
        "We share information with others only where the law requires it, for example to prevent serious harm.",
      ],
    },
    {
      id: "how-long-we-keep-it",
      heading: "How long we keep it",
      blocks: [
        {
          list: [
            "Your answers to the consent questions: for a set period after your test, long enough to read your result, and then they are deleted for good.",
            "Your results: for as long as you have an account with us. If you delete it, we keep each result apart from everything else, with only what says whose it is, for the clinic's retention period for medical records from the day we gave it to you, and then we delete it. The earlier versions of a corrected result stay, but once the result is deleted they no longer lead to you.",
            "Your account, your personal details and your waiting-list entries: until you delete your account or ask us to.",
            "Records of payments and refunds: for as long as charity and tax law require.",
            "The record of staff looking at your information: it cannot be changed or removed, so that every look can always be checked.",
          ],
        },
      ],
    },
    {
      id: "your-rights",
      heading: "Your rights, and how to use them",
      blocks: [
        "You have the right to see the information we hold about you, to have it corrected, to have it deleted, to have it sent to you in a form a computer can read, to object to how we use it or ask us to limit it, and to withdraw your consent.",
        {
          list: [
            [
              "To download a copy of your information, or delete your account, sign in and go to ",
              { text: "My data", href: MY_DATA_PATH },
              ".",
            ],
            [
              "To correct your details, sign in and go to ",
              { text: "your personal information", href: "/portal" },
              ".",
            ],
            "To stop the newsletter, use the link at the bottom of any newsletter.",
            [
              "For anything else, or if you cannot use the website, e-mail ",
              { text: emails.info, href: `mailto:${emails.info}` },
              " or call ",
              { text: phones.general.display, href: `tel:${phones.general.tel}` },
              ".",
            ],
          ],
        },
        "We answer within one month. It is free.",
      ],
    },
    {
      id: "cookies",
      heading: "Cookies",
      blocks: [
        "We use only the cookies the site needs to work: one that keeps you signed in, and one that remembers an access code you typed for a private event. We do not use cookies for advertising or to follow you around the web.",
      ],
    },
    {
      id: "complaints",
      heading: "If you are unhappy",
      blocks: [
        "Please tell us first, and we will try to put it right.",
        [
          "You can also complain to the Information Commissioner's Office, which checks how organisations use personal information: ",
          {
            text: "make a complaint on the ICO website",
            href: "https://ico.org.uk/make-a-complaint/",
          },
          ".",
        ],
      ],
    },
  ],
};
