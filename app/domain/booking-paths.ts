/** The pages of the booking journey, by booking reference. */
export const bookingPaths = {
  chooseTime: (eventId: string) => `/book-event?event=${eventId}`,
  consent: (reference: string) => `/book-event/consent?booking=${reference}`,
  checkout: (reference: string) => `/checkout?booking=${reference}`,
  success: (reference: string) => `/booking-success?booking=${reference}`,
} as const;
