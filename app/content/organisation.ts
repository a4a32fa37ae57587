/**
 * Everything that names or reaches the charity. The charity replaces these values in this one
 * file; every page, e-mail and test reads them from here. The phone numbers are in Ofcom's
 * drama range and never connect.
 */
export const organisation = {
  name: "Men's Health Advocacy Trust",
  shortName: "MHAT",
  founded: 2000,
  charityNumber: "0000000",
  screeningEventPath: "/mhat-screening-event",
  phones: {
    booking: { label: "Booking helpline", display: "01632 960 001", tel: "+441632960001" },
    general: { label: "General enquiries", display: "01632 960 002", tel: "+441632960002" },
    medical: { label: "Medical enquiries", display: "01632 960 003", tel: "+441632960003" },
    events: { label: "Event enquiries", display: "01632 960 004", tel: "+441632960004" },
  },
  emails: {
    bookings: "bookings@example.org",
    info: "info@example.org",
    events: "events@example.org",
    speakers: "speakers@example.org",
  },
  address: {
    lines: ["1 Example Street", "Chelmsford"],
    postcode: "CM1 0XX",
    country: "United Kingdom",
  },
  supplierCredit: "Website built and run by the MHAT digital team",
  /** Where donations and supporter sign-ups go: our own page, so nothing leaves the site unannounced. */
  donatePath: "/support-us#donate",
} as const;

export function postalAddress(): string {
  const { lines, postcode, country } = organisation.address;
  return [...lines, postcode, country].join(", ");
}
