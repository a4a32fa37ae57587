export interface PatientJourney {
  id: string;
  title: string;
  name: string;
  role: string;
  description: string;
  article: string[];
  resources?: { label: string; to: string }[];
}

/** Two invented stories, to be replaced by real ones told with permission. */
export const patientJourneys: PatientJourney[] = [
  {
    id: "robert-hale",
    title: "Robert's story: a test at the lodge",
    name: "Robert Hale",
    role: "Freemason, aged 62",
    description:
      "Robert had no symptoms when his lodge hosted a screening evening. His amber result changed everything.",
    article: [
      "I have been a member of my lodge for thirty years. When the almoner said the charity was coming to test us, I put my name down mostly to keep him happy. I felt perfectly well.",
      "The nurse took a little blood and explained that a result would come within a couple of weeks. When it arrived, it was amber: slightly raised for my age. The letter suggested a repeat test in three months, which I nearly forgot about.",
      "The second test was higher, so I went to my GP, who referred me for a scan and a biopsy. It was cancer, but it was found early and had not spread. I had surgery that autumn.",
      "Two years on, my PSA is undetectable and I am back to walking the dog every morning. Our lodge now hosts an event every year, and I make sure the younger members come along.",
      "If you are a man over 40, please book a test. It costs you five minutes, and it gave me my future.",
    ],
    resources: [
      {
        label: "Prostate diseases and prostate cancer",
        to: "/information-hub/prostate-diseases-and-prostate-cancer",
      },
      { label: "Our 2023 statistics", to: "/information-hub/statistics" },
      { label: "Find a screening event", to: "/book-event-main" },
    ],
  },
  {
    id: "michael-adeyemi",
    title: "Michael's story: knowing my risk",
    name: "Michael Adeyemi",
    role: "Bus driver, aged 48",
    description:
      "Michael knew that Black men face a higher risk of prostate cancer. A community event gave him his first test.",
    article: [
      "My uncle had prostate cancer, and I had read that Black men are more likely to get it. But I did not know how to ask for a test, and I was worried about what it would involve.",
      "A poster at my community centre advertised a free screening morning. I booked a slot online the same evening, and my wife came with me.",
      "The nurse explained everything before taking any blood: what PSA is, what a raised level can mean, and what would happen next. My result was green, normal for my age, with a suggestion to test again in a year because of my family history.",
      "It was a relief, but more than that, I now understand my own risk. I have persuaded four friends from church to book at the next event.",
    ],
  },
];

export function findPatientJourney(id: string | undefined) {
  return patientJourneys.find((story) => story.id === id);
}
