import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { useHydrated } from "./client-only";
import { DATE_WINDOW_LABELS, DATE_WINDOWS, EVENT_CATEGORIES } from "#app/domain/events";
import type { EventQuery } from "#app/domain/event-query";

const CATEGORY_LABELS = {
  community: "Community",
  freemasons: "Freemasons",
  corporate: "Corporate",
} as const;

/**
 * The filter panel: a GET form, so it works without JavaScript and its address can be shared.
 * Changing a filter changes nothing else (WCAG 3.2.2): the list is searched again only when the
 * person asks, with Search or Show events, and focus stays where it was; `found` (what a search
 * found, null before one) is said under the buttons, with a link down to the list. By Date and By Location
 * are two plain sections, both always shown.
 */
export function EventFilters({ query, found }: { query: EventQuery; found: number | null }) {
  const form = useRef<HTMLFormElement>(null);
  // The form stays mounted (remounting it would drop focus); when the address changes some other
  // way (Back, a link), its fields are set to match the search shown.
  const shown = JSON.stringify(query);
  // The search the fields were last set to: at first the one the server rendered, so hydrating
  // never undoes what a person changed while the page's script was still loading.
  const fieldsShow = useRef(shown);
  // Set when he presses Search or Show events here; the answer's count is then scrolled into view.
  const searched = useRef(false);
  const hydrated = useHydrated();
  const foundLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!searched.current || found === null) return;
    searched.current = false;
    // Focus stays on the button he pressed; the count (under Show events, a screen below Search
    // at large text) is brought into view, where he can read it and follow its link (D-216).
    foundLine.current?.scrollIntoView({ block: "nearest" });
  }, [shown, found]);
  useEffect(() => {
    const element = form.current;
    if (!element || fieldsShow.current === shown) return;
    fieldsShow.current = shown;
    const fields = element.elements;
    (fields.namedItem("date") as HTMLSelectElement).value = query.date ?? "";
    (fields.namedItem("location") as HTMLInputElement).value = query.location ?? "";
    for (const box of element.querySelectorAll<HTMLInputElement>('input[name="for"]'))
      box.checked = query.for.includes(box.value as (typeof EVENT_CATEGORIES)[number]);
    // Only a different search: the same one loaded again must not undo what is being typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown]);

  return (
    <Form
      ref={form}
      method="get"
      // Without scripts the answer opens at the count, not at the top of the page; with them,
      // React Router would scroll the count to the top, past the button, so the effect above does.
      action={hydrated ? "/book-event-main" : "/book-event-main#filter-found"}
      className="filter-panel"
      role="search"
      aria-label="Find an event"
      preventScrollReset
      onSubmit={() => (searched.current = true)}
    >
      <div className="filter-section">
        <h2 className="filter-heading">By Date</h2>
        <label className="label" htmlFor="filter-date">
          When
        </label>
        <select id="filter-date" name="date" className="select" defaultValue={query.date ?? ""}>
          <option value="">Select Date</option>
          {DATE_WINDOWS.map((window) => (
            <option key={window} value={window}>
              {DATE_WINDOW_LABELS[window]}
            </option>
          ))}
        </select>
      </div>

      <div className="filter-section">
        <h2 className="filter-heading">By Location</h2>
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
              />
              {CATEGORY_LABELS[category]}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="button button--secondary">
        Show events
      </button>
      {/* On a phone the list is far below: what the search found, where the button was pressed. */}
      {found !== null && (
        <p className="filter-found" id="filter-found" ref={foundLine}>
          {found === 0
            ? "No upcoming events found."
            : `${found} upcoming ${found === 1 ? "event" : "events"} found.`}{" "}
          {found > 0 && <a href="#results-title">See {found === 1 ? "it" : "them"}</a>}
        </p>
      )}
    </Form>
  );
}
