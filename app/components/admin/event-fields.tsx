import type { ReactNode } from "react";
import { TextArea, TextField } from "#app/components/form";
import { RadioGroup } from "#app/components/radio-group";
import { SelectField } from "#app/components/select-field";
import type { FieldErrors } from "#app/domain/form-basics";
import { formatPounds } from "#app/domain/pricing";

/** The event form's fields in page order, for the error summary. */
export const EVENT_FIELD_ORDER = [
  "name",
  "description",
  "productId",
  "price",
  "paymentRequired",
  "eventDate",
  "startTime",
  "endTime",
  "sessionDuration",
  "totalSpaces",
  "placesPerSlot",
  "category",
  "exclusiveFor",
  "visibility",
  "contactEmail",
  "labName",
  "addressLine1",
  "addressLine2",
  "city",
  "state",
  "postcode",
  "country",
  "latitude",
  "longitude",
] as const;

export const CATEGORY_LABELS = {
  community: "Community",
  freemasons: "Freemasons",
  corporate: "Corporate",
} as const;

/** The values a new event's form starts with. */
export const NEW_EVENT_VALUES: Record<string, string> = {
  paymentRequired: "yes",
  sessionDuration: "15",
  placesPerSlot: "2",
  category: "community",
  exclusiveFor: "everyone",
  visibility: "public",
  country: "United Kingdom",
  contactEmail: "events@example.org",
};

const COUNTRY_OPTIONS = ["United Kingdom", "Ireland"] as const;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="form-section">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/**
 * Every field of an event, as the create and edit pages show them. Values are what was stored or
 * typed (strings); errors sit beside their fields. Products and labs come from the database.
 */
export function EventFields({
  values,
  errors,
  products,
  labs,
  booked = 0,
}: {
  values: Record<string, string>;
  errors: FieldErrors;
  products: readonly { id: string; name: string; pricePence: number }[];
  labs: readonly string[];
  /** men booked (confirmed): a new address is e-mailed to each */
  booked?: number;
}) {
  const value = (name: string) => values[name] ?? "";
  const text = (
    name: string,
    label: string,
    extra: {
      hint?: string;
      type?: string;
      autoComplete?: string;
      className?: string;
      inputMode?: "numeric" | "decimal" | "email";
    } = {},
  ) => (
    <TextField
      name={name}
      label={label}
      defaultValue={value(name)}
      error={errors[name]}
      {...extra}
    />
  );
  return (
    <>
      <Section title="About the event">
        {text("name", "Event name", {
          hint: "As people see it on the site, like Halstead Rugby Club Screening",
        })}
        <TextArea
          name="description"
          label="Description (optional)"
          defaultValue={value("description")}
          error={errors.description}
        />
        <SelectField
          name="productId"
          label="What is tested"
          hint="The product sets the standard price."
          error={errors.productId}
          defaultValue={value("productId")}
          placeholder="Choose a product"
          options={products.map((product) => ({
            value: product.id,
            label: `${product.name} (${formatPounds(product.pricePence)})`,
          }))}
        />
        {text("price", "Price for this event in pounds (optional)", {
          hint: "Leave blank to use the product's price. For example, 25.00. £0.00 or more.",
          className: "input--width-20",
          inputMode: "decimal",
        })}
        <RadioGroup
          name="paymentRequired"
          legend="Do people pay online when they book?"
          error={errors.paymentRequired}
          checked={value("paymentRequired")}
          options={[
            { value: "yes", label: "Yes, they pay when they book" },
            {
              value: "no",
              label: "No, it is free to them",
              hint: "The host or a fund pays instead.",
            },
          ]}
        />
        <SelectField
          name="labName"
          label="Lab"
          hint="The laboratory that tests the samples. ESNEFT needs each person's NHS number, so people without one on their profile cannot book."
          error={errors.labName}
          defaultValue={value("labName")}
          placeholder="Choose a lab"
          options={labs.map((lab) => ({ value: lab, label: lab }))}
        />
      </Section>

      <Section title="Date and times">
        {text("eventDate", "Date", {
          type: "date",
          hint: "For example, 2026-06-10.",
          className: "input--width-20",
        })}
        {text("startTime", "Start time", {
          type: "time",
          hint: "UK time, for example 09:30.",
          className: "input--width-20",
        })}
        {text("endTime", "End time", {
          type: "time",
          hint: "After the start time, for example 13:00.",
          className: "input--width-20",
        })}
        {text("sessionDuration", "Length of one appointment, in minutes", {
          hint: "At least one whole appointment must fit between the start and end times.",
          className: "input--width-20",
          inputMode: "numeric",
        })}
      </Section>

      <Section title="Places">
        {text("totalSpaces", "Total places", {
          hint: "Cannot be fewer than the places already booked or held.",
          className: "input--width-20",
          inputMode: "numeric",
        })}
        {text("placesPerSlot", "People seen at the same time", {
          hint: "How many places each appointment time has.",
          className: "input--width-20",
          inputMode: "numeric",
        })}
      </Section>

      <Section title="Who may book">
        <SelectField
          name="category"
          label="Kind of event"
          error={errors.category}
          defaultValue={value("category")}
          options={Object.entries(CATEGORY_LABELS).map(([key, label]) => ({ value: key, label }))}
        />
        <RadioGroup
          name="exclusiveFor"
          legend="Open to"
          error={errors.exclusiveFor}
          checked={value("exclusiveFor")}
          options={[
            { value: "everyone", label: "Everyone aged 40 to 80" },
            {
              value: "CORPORATE",
              label: "The host employer's staff only (corporate)",
              hint: "Stays open for booking until the event ends.",
            },
          ]}
        />
        <RadioGroup
          name="visibility"
          legend="Public or private"
          error={errors.visibility}
          checked={value("visibility")}
          options={[
            { value: "public", label: "Public: anyone can see and book it" },
            {
              value: "private",
              label: "Private: people need an access code to see and book it",
              hint: "Make codes on the event's page once it is saved.",
            },
          ]}
        />
        {text("contactEmail", "Contact e-mail (optional)", {
          type: "email",
          hint: "Shown on the event's page.",
          autoComplete: "off",
        })}
      </Section>

      <Section title="Where">
        {booked > 0 && (
          <p className="hint">
            {booked === 1 ? "1 man is" : `${booked} men are`} booked. If you change the address,
            each is e-mailed the new one, with a new calendar entry, when you save.
          </p>
        )}
        {text("addressLine1", "Address line 1")}
        {text("addressLine2", "Address line 2 (optional)")}
        {text("city", "Town or city")}
        {text("state", "County (optional)")}
        {text("postcode", "Postcode", { className: "input--width-20" })}
        <SelectField
          name="country"
          label="Country"
          error={errors.country}
          defaultValue={value("country") || "United Kingdom"}
          options={COUNTRY_OPTIONS.map((country) => ({ value: country, label: country }))}
        />
        {text("latitude", "Latitude (optional)", {
          hint: "For the map: a number between -90 and 90, for example 51.7356.",
          className: "input--width-20",
        })}
        {text("longitude", "Longitude (optional)", {
          hint: "A number between -180 and 180, for example 0.4685.",
          className: "input--width-20",
        })}
      </Section>
    </>
  );
}
