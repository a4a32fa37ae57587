import { describe, expect, it } from "vitest";
import { consentErrorMessage, consentFormInput, parseConsentForm } from "./consent";

const complete = {
  numberOfPsaTest: "2",
  familyHistoryProstateCancer: "Yes",
  familyMemberWithProstateCancer: ["Father", "Uncle"],
  familyHistoryBreastOvarianCancer: "No",
  motherSideDetails: "",
  medicationHistory: "None",
  terms: "on",
  sampleConsent: "on",
};

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
}

describe("consent form", () => {
  it("gives the answers in the spec's names, with the GP consent apart", () => {
    expect(parseConsentForm({ ...complete, gpConsent: "on" })).toEqual({
      ok: true,
      data: {
        answers: {
          numberOfPsaTest: 2,
          familyHistoryProstateCancer: "Yes",
          familyMemberWithProstateCancer: ["Father", "Uncle"],
          familyHistoryBreastOvarianCancer: "No",
          familyMemberWithOvarianCancer: [],
          motherSideDetails: null,
          medicationHistory: "None",
        },
        gpConsent: true,
      },
    });
  });

  it("reads FormData with repeated keys for the relatives, and keeps them in the form's order", () => {
    const result = parseConsentForm(
      form([
        ["numberOfPsaTest", "5"],
        ["familyHistoryProstateCancer", "Don't know"],
        ["familyHistoryBreastOvarianCancer", "Yes"],
        ["familyMemberWithOvarianCancer", "Aunt"],
        ["familyMemberWithOvarianCancer", "Mother"],
        ["familyMemberWithOvarianCancer", "Aunt"],
        ["medicationHistory", "Proscar/Propecia(Finasteride)"],
        ["terms", "on"],
        ["sampleConsent", "on"],
      ]),
    );
    expect(result).toEqual({
      ok: true,
      data: {
        answers: {
          numberOfPsaTest: 5,
          familyHistoryProstateCancer: "Don't know",
          familyMemberWithProstateCancer: [],
          familyHistoryBreastOvarianCancer: "Yes",
          familyMemberWithOvarianCancer: ["Mother", "Aunt"],
          motherSideDetails: null,
          medicationHistory: "Proscar/Propecia(Finasteride)",
        },
        gpConsent: false,
      },
    });
  });

  it("reports every problem of an empty form at once, in the form's order", () => {
    const result = parseConsentForm({});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.entries(result.fieldErrors)).toEqual([
      ["numberOfPsaTest", "This field is required."],
      ["familyHistoryProstateCancer", "This field is required."],
      ["familyHistoryBreastOvarianCancer", "This field is required."],
      ["medicationHistory", "This field is required."],
      ["terms", "You must agree to the terms and conditions."],
      ["sampleConsent", "You must consent that your samples will be taken and tested."],
    ]);
  });

  it("asks for sample consent with the terms, not only once they are ticked (found by an accessibility review)", () => {
    const withoutSample = parseConsentForm({ ...complete, sampleConsent: undefined });
    expect(withoutSample).toMatchObject({
      ok: false,
      fieldErrors: {
        sampleConsent: "You must consent that your samples will be taken and tested.",
      },
    });
    const neither = parseConsentForm({ ...complete, terms: undefined, sampleConsent: undefined });
    expect(neither).toMatchObject({
      ok: false,
      fieldErrors: {
        terms: "You must agree to the terms and conditions.",
        sampleConsent: "You must consent that your samples will be taken and tested.",
      },
    });
  });

  it("needs a relative or details when the father's side answer is Yes", () => {
    const result = parseConsentForm({ ...complete, familyMemberWithProstateCancer: [] });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: {
        familyMemberWithProstateCancer:
          "Please specify which relative(s) or provide additional details.",
      },
    });
    const withDetails = parseConsentForm({
      ...complete,
      familyMemberWithProstateCancer: [],
      motherSideDetails: "My father's cousin, in his sixties",
    });
    expect(withDetails.ok).toBe(true);
  });

  it("needs a relative on the mother's side when Yes, unless the details are filled", () => {
    const mother = { ...complete, familyHistoryBreastOvarianCancer: "Yes" };
    expect(parseConsentForm(mother)).toMatchObject({
      ok: false,
      fieldErrors: {
        familyMemberWithOvarianCancer:
          "Please specify which relative(s) or provide additional details.",
      },
    });
    expect(parseConsentForm({ ...mother, motherSideDetails: "   " }).ok).toBe(false);
    const withDetails = parseConsentForm({
      ...mother,
      motherSideDetails: " Maternal aunt's daughter ",
    });
    expect(withDetails).toMatchObject({
      ok: true,
      data: { answers: { motherSideDetails: "Maternal aunt's daughter" } },
    });
  });

  it("drops relatives still ticked under an answer that is not Yes", () => {
    const result = parseConsentForm({
      ...complete,
      familyHistoryProstateCancer: "No",
      familyMemberWithProstateCancer: ["Brother"],
    });
    expect(result).toMatchObject({
      ok: true,
      data: { answers: { familyMemberWithProstateCancer: [] } },
    });
  });

  it("refuses values that are not on the form", () => {
    const result = parseConsentForm({
      ...complete,
      numberOfPsaTest: "6",
      familyHistoryProstateCancer: "Maybe",
      medicationHistory: "Aspirin",
      familyHistoryBreastOvarianCancer: "Yes",
      familyMemberWithOvarianCancer: ["Cousin"],
    });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: {
        numberOfPsaTest: "This field is required.",
        familyHistoryProstateCancer: "This field is required.",
        familyMemberWithOvarianCancer:
          "Please specify which relative(s) or provide additional details.",
        medicationHistory: "This field is required.",
      },
    });
  });

  it("limits the details to 1000 characters and refuses control characters", () => {
    expect(parseConsentForm({ ...complete, motherSideDetails: "a".repeat(1001) })).toMatchObject({
      ok: false,
      fieldErrors: { motherSideDetails: "Must be 1000 characters or fewer" },
    });
    expect(parseConsentForm({ ...complete, motherSideDetails: "a\u0000b" })).toMatchObject({
      ok: false,
      fieldErrors: {
        motherSideDetails:
          "This answer contains a character we cannot accept (a control code). Please retype it.",
      },
    });
  });

  it("keeps what was sent, lists as lists, to fill the form in again", () => {
    const data = form([
      ["familyHistoryProstateCancer", "Yes"],
      ["familyMemberWithProstateCancer", "Brother"],
      ["familyMemberWithProstateCancer", "Father"],
      ["motherSideDetails", "text"],
    ]);
    expect(consentFormInput(data)).toEqual({
      familyHistoryProstateCancer: "Yes",
      familyMemberWithProstateCancer: ["Brother", "Father"],
      motherSideDetails: "text",
    });
    const result = parseConsentForm(data);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.values.familyMemberWithProstateCancer).toEqual(["Brother", "Father"]);
  });
});

describe("consentErrorMessage", () => {
  it("says which question a message is about, keeping the spec's words", () => {
    expect(consentErrorMessage("numberOfPsaTest", "This field is required.")).toBe(
      "Which PSA test will this be? This field is required.",
    );
    expect(consentErrorMessage("medicationHistory", "This field is required.")).toBe(
      "Do you take any of these medicines? This field is required.",
    );
  });

  it("names a relatives list by the question that opened it", () => {
    const specify = "Please specify which relative(s) or provide additional details.";
    expect(consentErrorMessage("familyMemberWithProstateCancer", specify)).toBe(
      `Has a relative had prostate cancer? ${specify}`,
    );
    expect(consentErrorMessage("familyMemberWithOvarianCancer", specify)).toBe(
      `Has a relative had breast or ovarian cancer? ${specify}`,
    );
  });

  it("leaves the consent boxes' messages, which already say what they are about", () => {
    const terms = "You must agree to the terms and conditions.";
    expect(consentErrorMessage("terms", terms)).toBe(terms);
  });
});
