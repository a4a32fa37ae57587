export interface NewsItem {
  id: number;
  title: string;
  /** "DD Month YYYY", as the spec writes news dates. */
  date: string;
  description: string;
  fullDescription: string[];
  /** The spec's card 0 links onward; ours goes to a page on this site. */
  link?: { to: string; label: string };
}

const n = (
  id: number,
  date: string,
  title: string,
  description: string,
  fullDescription: string[],
  link?: NewsItem["link"],
): NewsItem => ({
  id,
  title,
  date,
  description,
  fullDescription,
  link,
});

export const news: NewsItem[] = [
  n(
    0,
    "04 February 2020",
    "World Cancer Day: our poster for clubs and workplaces",
    "We have made a free poster for World Cancer Day that clubs, lodges and employers can print and display.",
    [
      "World Cancer Day falls on 4 February. This year we have designed a simple poster encouraging men aged 40 to 80 to find out their PSA level.",
      "It is free to print and display. It lists our booking helpline and explains, in plain words, what the test involves.",
    ],
    { to: "/world-cancer-day-poster", label: "See the poster" },
  ),
  n(
    1,
    "21 January 2020",
    "A record year of screening behind us",
    "Our nurses tested more men in 2019 than in any year since the charity began.",
    [
      "Thanks to the clubs, lodges and employers who hosted us, 2019 was our busiest year yet.",
      "We are grateful to every volunteer who gave up an evening or a Saturday morning to welcome men to our events.",
    ],
  ),
  n(
    2,
    "08 January 2020",
    "New Year, new dates for Essex",
    "The first events of 2020 are now open for booking in Chelmsford, Colchester and Basildon.",
    [
      "Places are limited at every event, so we recommend booking early.",
      "If you cannot find a date near you, ask your club or employer to host an event for its members.",
    ],
  ),
  n(
    3,
    "26 February 2020",
    "Why we test from the age of 40",
    "Our clinical director explains why a baseline PSA test in your forties can be useful.",
    [
      "A PSA result in your forties gives you and your doctor a baseline. A later rise is easier to spot against it.",
      "Men at higher risk, including Black men and men with a family history, benefit most from knowing their baseline early.",
    ],
  ),
  n(
    4,
    "14 April 2020",
    "Events paused to keep everyone safe",
    "We have postponed all screening events until it is safe to gather again.",
    [
      "The health of the men who come to our events, and of our nurses and volunteers, comes first.",
      "Everyone with a booking has been contacted. Our helplines remain open for questions.",
    ],
  ),
  n(
    5,
    "29 April 2020",
    "Talking about your health from home",
    "Our speakers are now giving online talks to clubs and workplaces.",
    [
      "While events are paused, our speakers can join your club or team meeting online to talk about prostate health.",
      "E-mail speakers@example.org to arrange a talk.",
    ],
  ),
  n(
    6,
    "10 July 2020",
    "Screening returns, with new safety measures",
    "Our first events since the spring are booked, with timed slots and distancing.",
    [
      "Every man now books a timed slot so that waiting areas stay quiet.",
      "Our nurses wear protective equipment, and every chair and surface is cleaned between appointments.",
    ],
  ),
  n(
    7,
    "24 July 2020",
    "Thank you to our fundraisers",
    "A sponsored walk along the Blackwater raised enough to fund tests at two events.",
    [
      "Twenty-three walkers covered twelve miles in the summer heat.",
      "Their efforts will pay for screening for around 200 men this autumn.",
    ],
  ),
  n(
    8,
    "06 August 2020",
    "Bringing screening to the workplace",
    "Employers across Suffolk are inviting us to screen their staff on site.",
    [
      "Screening at work removes the need to take time off for an appointment.",
      "Results go to each man privately and are never shared with his employer.",
    ],
  ),
  n(
    9,
    "27 August 2020",
    "Volunteers wanted for autumn events",
    "We are looking for friendly people to welcome men and help them register.",
    [
      "No medical knowledge is needed. We provide training and a named contact at every event.",
      "If you can spare a few hours a month, e-mail info@example.org.",
    ],
  ),
  n(
    10,
    "15 September 2020",
    "Autumn dates announced",
    "Twelve new events across Essex, Suffolk and London are open for booking.",
    [
      "Dates include evenings and Saturday mornings to suit working men.",
      "Book through our events page, where you can filter by date and location.",
    ],
  ),
  n(
    11,
    "30 September 2020",
    "New partnership with NHS Health Check teams",
    "Some of our Essex and Suffolk events now include an NHS Health Check.",
    [
      "Men aged 40 to 74 can have their blood pressure, cholesterol and diabetes risk checked at the same visit.",
      "It means one trip instead of two, and a fuller picture of your health.",
    ],
  ),
  n(
    12,
    "11 March 2021",
    "Prostate Cancer Awareness Month",
    "This March we are asking every man to have one conversation about prostate health.",
    [
      "Talk to a brother, a friend or a colleague. Ask whether they know their PSA level.",
      "Our information hub has plain-language guides to share.",
    ],
  ),
  n(
    13,
    "25 March 2021",
    "Events reopen after the winter",
    "With restrictions easing, spring events are now open for booking.",
    [
      "We have added extra sessions to catch up with men who missed a test over the winter.",
      "Thank you for your patience while events were paused.",
    ],
  ),
  n(
    14,
    "07 May 2021",
    "Skin checks added at selected events",
    "Some summer events now include a skin check by a trained nurse.",
    [
      "Skin cancer is increasingly common, and men are more likely to have a melanoma on their back, where they cannot see it.",
      "Look for 'skin check' in the event description when you book.",
    ],
  ),
  n(
    15,
    "20 May 2021",
    "A message from our founder",
    "Twenty-one years on, our founder reflects on why early testing still matters.",
    [
      "When I started this charity, too many men reached my clinic with cancer that had already spread.",
      "Every test our nurses take is a chance to change that. Thank you for helping us keep going.",
    ],
  ),
  n(
    16,
    "09 September 2021",
    "Freemasons fund a year of events",
    "Lodges across three provinces have pledged to fund screening for their members and local communities.",
    [
      "Freemasons have hosted our events since the early years, and this pledge secures a full programme for the year ahead.",
      "Read the story of one lodge member whose result led to early treatment.",
    ],
  ),
  n(
    17,
    "23 September 2021",
    "Results now faster than ever",
    "Most men now receive their results within two weeks of their test.",
    [
      "We have worked with our laboratory partners to speed up the return of results.",
      "If your result needs follow-up, we will explain the next steps clearly.",
    ],
  ),
  n(
    18,
    "05 December 2022",
    "Season's greetings and thank you",
    "Thank you to everyone who hosted, volunteered, fundraised or came for a test this year.",
    [
      "This year our nurses visited more community halls, lodges and workplaces than ever.",
      "Our offices close for the holidays from 23 December and reopen on 3 January.",
    ],
  ),
  n(
    19,
    "16 December 2022",
    "Dates for the new year",
    "Our January and February events are open for booking now.",
    [
      "Start the year by finding out your PSA level.",
      "Events fill quickly after the holidays, so book early.",
    ],
  ),
  n(
    20,
    "13 June 2023",
    "Men's Health Week",
    "This Men's Health Week we are holding extra events in London and Essex.",
    [
      "Men's Health Week is a good reminder to book the checks you have been putting off.",
      "Bring a friend: many of the men we see came because someone else encouraged them.",
    ],
  ),
  n(
    21,
    "28 June 2023",
    "Research summary 2023 published",
    "Our research summary shows what we learnt from thousands of tests.",
    [
      "In 2023 we tested 2,397 men. 168 had an abnormal result (7.15%), and 26 cancers were found.",
      "Read the full summary on our research page.",
    ],
  ),
  n(
    22,
    "10 August 2023",
    "Testing men over 80",
    "New guidance explains when PSA testing helps men over 80, and when it may not.",
    [
      "Our events are for men aged 40 to 80. Older men often ask whether they should be tested too.",
      "Our guidance explains the benefits and drawbacks, so you can talk it through with your GP.",
    ],
  ),
  n(
    23,
    "24 August 2023",
    "Over 50 events planned",
    "We are planning more than 50 screening events for the year ahead.",
    [
      "Thanks to our hosts and supporters, we can reach more communities than ever.",
      "If your club or workplace would like to host an event, e-mail events@example.org.",
    ],
  ),
];
