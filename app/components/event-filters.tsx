import { useState } from "react";
import { Form, useSubmit } from "react-router";
import { DATE_WINDOW_LABELS, DATE_WINDOWS, EVENT_CATEGORIES } from "#app/domain/events";
import type { EventQuery } from "#app/domain/event-query";

const CATEGORY_LABELS = {
  community: "Community",
  freemasons: "Freemasons",
  corporate: "Corporate",
} as const;

/**
 * The filter panel: a GET form, so it works without JavaScript and its address can be shared.
 * With JavaScript, the By Date / By Location tabs show one part at a time, and changing the
 * date or a category re-runs the search at once.
 */
export function EventFilters({ query }: { query: EventQuery }) {
  const submit = useSubmit();
  const [tab, setTab] = useState<"date" | "location">(query.location ? "location" : "date");
  const resubmit = (form: HTMLFormElement) =>
    submit(form, { preventScrollReset: true, replace: true });

  return (
    <Form
      method="get"
      action="/book-event-main"
      className="filter-panel"
      role="search"
      aria-label="Find an event"
      preventScrollReset
    >
      <div className="tabs js-only" role="tablist" aria-label="Search by">
        {(["date", "location"] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`tab-${name}`}
            aria-controls={`panel-${name}`}
            aria-selected={tab === name}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            onKeyDown={(event) => {
              if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
                const next = name === "date" ? "location" : "date";
                setTab(next);
                document.getElementById(`tab-${next}`)?.focus();
              }
            }}
          >
            {name === "date" ? "By Date" : "By Location"}
          </button>
        ))}
      </div>

      <div
        id="panel-date"
        role="tabpanel"
        aria-labelledby="tab-date"
        className={tab === "date" ? "" : "tab-hidden"}
      >
        <label className="label" htmlFor="filter-date">
          When
        </label>
        <select
          id="filter-date"
          name="date"
          className="select"
          defaultValue={query.date ?? ""}
          onChange={(event) => resubmit(event.currentTarget.form!)}
        >
          <option value="">Select Date</option>
          {DATE_WINDOWS.map((window) => (
            <option key={window} value={window}>
              {DATE_WINDOW_LABELS[window]}
            </option>
          ))}
        </select>
      </div>

      <div
        id="panel-location"
        role="tabpanel"
        aria-labelledby="tab-location"
        className={tab === "location" ? "" : "tab-hidden"}
      >
        <label className="label" htmlFor="filter-location">
          Town or postcode
        </label>
        <div className="inline-field">
          <input
            id="filter-location"
            name="location"
            type="search"
            className="input"
            defaultValue={query.location ?? ""}
            autoComplete="address-level2"
            maxLength={100}
          />
          <button type="submit" className="button">
            Search
          </button>
        </div>
      </div>

      <fieldset className="filter-categories">
        <legend>Type of event</legend>
        <div className="checkboxes">
          {EVENT_CATEGORIES.map((category) => (
            <label key={category} className="checkbox">
              <input
                type="checkbox"
                name="for"
                value={category}
                defaultChecked={query.for.includes(category)}
                onChange={(event) => resubmit(event.currentTarget.form!)}
              />
              {CATEGORY_LABELS[category]}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="button button--secondary no-js-only">
        Show events
      </button>
    </Form>
  );
}
