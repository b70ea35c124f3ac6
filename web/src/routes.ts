/** The client's pages and how the address bar maps to them. */

export type Route =
  | { page: "home" }
  | { page: "rules" }
  | { page: "room"; code: string; tv: boolean }
  | { page: "notFound"; path: string };

const ROOM = /^\/r\/([A-Za-z0-9]{1,12})(\/tv)?\/?$/;

export function parseRoute(path: string): Route {
  const m = ROOM.exec(path);
  if (m) return { page: "room", code: m[1]!.toUpperCase(), tv: Boolean(m[2]) };
  if (path === "/" || path === "" || path === "/index.html") return { page: "home" };
  if (path === "/rules" || path === "/rules/") return { page: "rules" };
  return { page: "notFound", path };
}

export function navigate(path: string): void {
  history.pushState(null, "", path);
  dispatchEvent(new PopStateEvent("popstate"));
}
