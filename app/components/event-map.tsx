import { lazy } from "react";
import { ClientOnly } from "./client-only";

export interface MapMarker {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
}

// Leaflet needs `window`, so it loads after hydration and only on pages that render a map.
const LeafletMap = lazy(() => import("./event-map.client"));

/**
 * A map of events: one event close up, several fitted so that every pin shows (see
 * app/domain/map-view.ts). `size` is "tall" beside an event's details, "finder" on the finder
 * (room for a region's pins), otherwise the spec's 200 px.
 */
export function EventMap({
  markers,
  tileUrl,
  label,
  size,
}: {
  markers: MapMarker[];
  tileUrl: string;
  label: string;
  size?: "tall" | "finder";
}) {
  return (
    // Without scripts there is no map to show: no empty box, and no landmark with nothing in it.
    <figure className="stack js-only">
      <div
        className={`event-map${size ? ` event-map--${size}` : ""}`}
        role="region"
        aria-label={label}
      >
        <ClientOnly>
          <LeafletMap markers={markers} tileUrl={tileUrl} />
        </ClientOnly>
      </div>
      <figcaption className="hint">
        {size === "tall"
          ? "Map showing where the event is held. The address is given above."
          : `Map of ${markers.length} upcoming ${markers.length === 1 ? "event" : "events"}. Every event on the map is also listed on this page.`}
      </figcaption>
    </figure>
  );
}
