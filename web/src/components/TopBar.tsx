import { LANGUAGES, LANGUAGE_NAMES, type Lang } from "../i18n";
import { useI18n } from "../i18n/context";
import { navigate } from "../routes";
import { useMuted } from "../sound";
import type { ConnStatus } from "../state/reducer";

export function ConnectionPill({ status, attempt }: { status: ConnStatus; attempt: number }) {
  const { t } = useI18n();
  const text =
    status === "open" ? t("conn.connected")
    : status === "reconnecting" ? t("conn.reconnecting", { n: attempt })
    : status === "connecting" ? t("conn.connecting")
    : t("conn.offline");
  return (
    <span class={`pill pill--${status}`} role="status" aria-live="polite" data-testid="conn" data-status={status}>
      <span class="pill-dot" aria-hidden="true" />
      {text}
    </span>
  );
}

export function LanguageMenu() {
  const { lang, setLang, t } = useI18n();
  return (
    <label class="lang">
      <span class="sr-only">{t("lang.label")}</span>
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="1.8" /><path d="M3 12h18M12 3c3 3.5 3 14.5 0 18M12 3c-3 3.5-3 14.5 0 18" fill="none" stroke="currentColor" stroke-width="1.6" /></svg>
      <select value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)} data-testid="lang">
        {LANGUAGES.map((l) => <option key={l} value={l}>{LANGUAGE_NAMES[l]}</option>)}
      </select>
    </label>
  );
}

/** The "your turn" chime on or off; the choice is remembered on this device. */
export function MuteToggle() {
  const { t } = useI18n();
  const [muted, setMuted] = useMuted();
  return (
    <button type="button" class="mute" aria-pressed={muted ? "true" : "false"} aria-label={t("sound.mute")} title={t(muted ? "sound.off" : "sound.on")} onClick={() => setMuted(!muted)} data-testid="mute">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
        {muted ? <path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round" /> : <path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" />}
      </svg>
    </button>
  );
}

/** How to play, from every page: in a new tab from a room, so the game stays where it is. */
export function HelpLink() {
  const { t } = useI18n();
  const inRoom = location.pathname.startsWith("/r/");
  return (
    <a class="help-link" href="/rules" target={inRoom ? "_blank" : undefined} rel={inRoom ? "noopener" : undefined}
      onClick={(e) => { if (!inRoom) { e.preventDefault(); navigate("/rules"); } }} aria-label={t("help.link")} title={t("help.link")} data-testid="help-link">?</a>
  );
}

export function TopBar({ children }: { children?: preact.ComponentChildren }) {
  const { t } = useI18n();
  return (
    <header class="topbar">
      <a class="brand" href="/" aria-label={t("app.title")}>
        <svg viewBox="0 0 64 64" width="30" height="30" aria-hidden="true"><rect x="14" y="6" width="34" height="50" rx="5" fill="#f6ecd9" stroke="#e8b04a" stroke-width="4" transform="rotate(-8 31 31)" /><circle cx="30" cy="27" r="8" fill="#d9653b" /></svg>
        <span>{t("app.title")}</span>
      </a>
      <div class="topbar-right">
        {children}
        <HelpLink />
        <MuteToggle />
        <LanguageMenu />
      </div>
    </header>
  );
}
