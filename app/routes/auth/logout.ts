import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { cookieHeaders, signOut } from "#app/services/session.server";
import { readForm } from "#app/utils/http.server";

/** Logout signs out and goes to /login (a POST, so a link or image elsewhere cannot sign anyone out). */
export async function action({ request }: Route.ActionArgs) {
  await readForm(request);
  return redirect("/login", { headers: cookieHeaders(await signOut(request)) });
}

export function loader() {
  return redirect("/login");
}
