import { lazy } from "react";
import { ClientOnly } from "./client-only";

export interface MapMarker {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
}

/** London, where the map centres when it shows anything but a single event. */
export const LONDON_CENTRE: [number, number] = [51.5074, -0.1278];
export const SINGLE_EVENT_ZOOM = 13;
export const OVERVIEW_ZOOM = 8;

/** The centre and zoom the spec asks for: the single event at zoom 13, otherwise London at zoom 8. */
export function mapView(markers: readonly MapMarker[]): { center: [number, number]; zoom: number } {
  if (markers.length === 1)
    return { center: [markers[0]!.latitude, markers[0]!.longitude], zoom: SINGLE_EVENT_ZOOM };
  return { center: LONDON_CENTRE, zoom: OVERVIEW_ZOOM };
}

// Leaflet needs `window`, so it loads after hydration and only on pages that render a map.
const LeafletMap = lazy(() => import("./event-map.client"));

export function EventMap({
  markers,
  tileUrl,
  label,
  tall = false,
}: {
  markers: MapMarker[];
  tileUrl: string;
  label: string;
  tall?: boolean;
}) {
  return (
    <figure className="stack">
      <div
        className={`event-map${tall ? " event-map--tall" : ""}`}
        role="region"
        aria-label={label}
      >
        <ClientOnly>
          <LeafletMap markers={markers} tileUrl={tileUrl} {...mapView(markers)} />
        </ClientOnly>
      </div>
      <figcaption className="hint">
        {markers.length === 1
          ? "Map showing where the event is held. The address is given above."
          : `Map of ${markers.length} upcoming events. Every event on the map is also listed on this page.`}
      </figcaption>
    </figure>
  );
}
