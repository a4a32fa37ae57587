export interface Testimonial {
  content: string;
  name?: string;
  role?: string;
  /** Out of five; the old site showed a star image. */
  stars: number;
}

/** Invented people, to be replaced with real testimonials the charity has permission to use. */
export const testimonials: Testimonial[] = [
  {
    content:
      "I had no symptoms at all and nearly didn't go. The test took five minutes in our lodge hall, and the letter came back amber. " +
      "A repeat test three months later was still raised, so my GP referred me. They found an early cancer that was treated with surgery, " +
      "and I was back on the golf course that summer. I tell every man I meet over forty to get his PSA checked. " +
      "It was the easiest five minutes I have ever spent.",
    name: "Raymond T.",
    role: "Lodge member, Colchester",
    stars: 5,
  },
  {
    content:
      "Our company invited the team to a screening morning at work. The nurses explained everything clearly, nobody felt rushed, " +
      "and we had our results online within a fortnight. Forty-two of our staff took part, and for many it was the first health " +
      "check they had had in years. We have already booked again for next year.",
    name: "Sandra M.",
    role: "HR manager, Ipswich",
    stars: 5,
  },
  {
    content:
      "My father died of prostate cancer that was found too late, so I knew I was at higher risk. My surgery said I was too young " +
      "for routine testing. The charity's event let me have a baseline PSA at 45, with a proper explanation of what the number meant " +
      "and what would happen next. That peace of mind is worth more than I can say, and I now go every year with my brother.",
    name: "Kwame A.",
    role: "Community event attendee, Southend",
    stars: 5,
  },
];
