import { data } from "react-router";
import { NotFound } from "#app/components/not-found";
import { pipeHeaders } from "#app/utils/headers";

export const headers = pipeHeaders;

/** Catch-all: any path no other route claims answers HTTP 404. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
