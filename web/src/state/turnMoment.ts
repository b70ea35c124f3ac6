/**
 * One clear "your turn" moment per phase: the view scrolls to what you must do, the phone
 * vibrates where it can, a short chime plays (unless muted), and while the tab is in the
 * background its title and favicon say it. Nothing happens while the reveal is being read.
 */
import { useEffect, useRef } from "preact/hooks";
import type { T } from "../i18n";
import type { GameView } from "../protocol";
import { chime } from "../sound";
import { turn, type Turn } from "./reducer";

export function isMine(tn: Turn): boolean {
  return tn.kind === "yourClue" || tn.kind === "claimClue" || tn.kind === "yourSubmit" || tn.kind === "yourVote";
}

export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Scroll so that `el` starts just below the sticky top bar and banner. */
export function scrollBelowBanner(el: Element | null): void {
  if (!el) return;
  const banner = document.querySelector(".banner");
  const covered = banner ? Math.max(0, banner.getBoundingClientRect().bottom) : 0;
  const top = el.getBoundingClientRect().top + scrollY - covered - 8;
  scrollTo({ top: Math.max(0, top), behavior: reducedMotion() ? "auto" : "smooth" });
}

function setIcon(href: string): void {
  const link = document.querySelector<HTMLLinkElement>("link[rel=icon]");
  if (link && !link.href.endsWith(href)) link.href = href;
}

export function useTurnMoment(view: GameView, busy: boolean, t: T): void {
  const tn = turn(view);
  const mine = isMine(tn) && !busy;
  const key = `${view.round}:${view.phase}:${tn.kind}`;
  const last = useRef<string | null>(null);

  useEffect(() => {
    if (!mine || last.current === key) return;
    last.current = key;
    const target = document.querySelector(view.phase === "vote" ? ".table-area" : ".hand-area");
    requestAnimationFrame(() => {
      scrollBelowBanner(target);
      // Keyboard users land on the first card they can choose, not on <body>.
      const lost = document.activeElement === document.body || document.activeElement?.id === "banner";
      if (lost) target?.querySelector<HTMLElement>("button.card-face:not([disabled])")?.focus({ preventScroll: true });
    });
    if (!reducedMotion()) navigator.vibrate?.([60, 40, 60]);
    chime();
  }, [mine, key]);

  useEffect(() => {
    const show = () => {
      const alert = mine && document.hidden;
      document.title = alert ? `● ${t("tab.yourTurn")} · ${t("app.title")}` : t("app.title");
      setIcon(alert ? "/favicon-turn.svg" : "/favicon.svg");
    };
    show();
    document.addEventListener("visibilitychange", show);
    return () => {
      document.removeEventListener("visibilitychange", show);
      document.title = t("app.title");
      setIcon("/favicon.svg");
    };
  }, [mine, t]);
}
