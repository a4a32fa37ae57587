import {
  CANCEL_ANY_TIME,
  CHANGE_TERMS,
  REFUND_TERMS,
  WORKING_DAYS_EXPLAINED,
} from "#app/domain/terms-general";
import { organisation } from "./organisation";

/**
 * The words a person agrees to on the consent form. Consent to the screening and to the handling
 * of health data is explicit consent under UK GDPR Article 9, so every stored consent records the
 * version of these words. Change the wording, change the version (the date it took effect).
 */
export const CONSENT_WORDING_VERSION = "2026-11-24b";

export const consentWording = {
  version: CONSENT_WORDING_VERSION,
  intro: [
    "Before your test we ask a few questions about your PSA history and your family. The nurse and the laboratory use the answers to read your result; they are kept with your booking and are never e-mailed or shared outside the charity, except with your GP if you agree below.",
  ],
  terms: {
    label: "I agree to the terms and conditions.",
    text: [
      `The ${organisation.name} (${organisation.shortName}) offers a PSA blood test for men aged 40 to 80. A PSA test is not a diagnosis: a raised level can have causes other than cancer, and a normal level does not rule cancer out.`,
      `${organisation.shortName} will keep my answers, my sample's result and my contact details to run the screening, send me my result and advise me on what to do next. I can ask to see them, or ask questions, at ${organisation.emails.info}.`,
      `I have read the cancellation terms. ${CANCEL_ANY_TIME} ${CHANGE_TERMS} ${WORKING_DAYS_EXPLAINED}`,
      `If I pay for my appointment: ${REFUND_TERMS}`,
    ],
  },
  sampleConsent: {
    label: "I consent to a blood sample being taken and tested for PSA.",
    text: [
      "A trained member of staff will take a small blood sample from my arm. The sample is sent to an accredited laboratory, tested for prostate-specific antigen (PSA) and then destroyed; it is not used for anything else.",
    ],
  },
  gpConsent: {
    label: "I agree that my result may be shared with my GP (optional).",
    text: [
      "If you agree, we may send your result to your GP practice, which helps when a follow-up is needed. You can still book if you do not agree.",
    ],
  },
} as const;
