import { useEffect, useState } from "preact/hooks";
import { useI18n } from "../i18n/context";
import { errorText } from "../i18n/errors";
import { MISSING, type T } from "../i18n";
import { api, ApiProblem, type ImportReport } from "../net/api";
import { cardTexts } from "../net/cardText";
import type { DeckCards, DeckInfo } from "../protocol";
import { cardUrl } from "./Card";

const MAX_CAPTION = 200;

/** The host describes the cards of an imported deck: one short caption per card. */
export function CaptionEditor({ slug, token, onSaved }: { slug: string; token: string; onSaved: () => void }) {
  const { t } = useI18n();
  const [deck, setDeck] = useState<DeckCards | null>(null);
  const [text, setText] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.deckCards(slug, "en").then((d) => {
      setDeck(d);
      setText(Object.fromEntries(d.cards.map((c) => [c.id, c.description ?? ""])));
    }, (e) => setStatus(errorText(t, e instanceof ApiProblem ? e.code : "network")));
  }, [slug]);

  async function save(e: Event) {
    e.preventDefault();
    if (!deck) return;
    const changed = Object.fromEntries(deck.cards.filter((c) => (c.description ?? "") !== text[c.id]).map((c) => [c.id, text[c.id] ?? ""]));
    if (Object.keys(changed).length === 0) return setStatus(t("captions.saved", { n: deck.cards.filter((c) => text[c.id]?.trim()).length, total: deck.cards.length }));
    setBusy(true);
    try {
      const info = await api.captions(slug, { token, captions: changed });
      cardTexts.forget(slug);
      setDeck({ ...deck, cards: deck.cards.map((c) => (c.id in changed ? { ...c, description: changed[c.id]!.trim() || null } : c)) });
      setStatus(t("captions.saved", { n: info.described, total: info.card_count }));
      onSaved();
    } catch (err) {
      setStatus(errorText(t, err instanceof ApiProblem ? err.code : "network"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="captions" onSubmit={save} data-testid="captions">
      <p class="muted">{t("captions.why")}</p>
      <ol class="caption-list">
        {deck?.cards.map((c, i) => (
          <li key={c.id}>
            <img src={cardUrl(c.id)} alt="" width={54} height={81} loading="lazy" />
            <label class="field">
              <span>{t("captions.card", { n: i + 1 })}</span>
              <input value={text[c.id] ?? ""} maxLength={MAX_CAPTION} placeholder={t("captions.placeholder")} onInput={(e) => setText({ ...text, [c.id]: e.currentTarget.value })} data-testid="caption-input" />
            </label>
          </li>
        ))}
      </ol>
      <button type="submit" class="btn btn-primary" disabled={busy || !deck} data-testid="captions-save">{t("captions.save")}</button>
      {status ? <p role="status" class="muted" data-testid="captions-status">{status}</p> : null}
    </form>
  );
}

/** Why a file was left out, in the player's language (the server's English words for a reason
 * this client does not know yet). */
export function rejectionText(t: T, reason: string, message: string): string {
  const text = t(`upload.reason.${reason}`);
  return text.startsWith(MISSING) ? message : text;
}

/** Upload pictures (a zip or one image) as a new deck, or into one the host uploaded before;
 * then describe them. */
export function DeckUpload({ token, mine, onImported }: { token: string; mine: readonly DeckInfo[]; onImported: (slug: string) => void }) {
  const { t } = useI18n();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [into, setInto] = useState("");
  const target = mine.some((d) => d.slug === into) ? into : "";
  const [status, setStatus] = useState<string | null>(null);
  const [left, setLeft] = useState<ImportReport["rejected"]>([]);
  const [busy, setBusy] = useState(false);
  async function upload(e: Event) {
    e.preventDefault();
    if (!file) return setStatus(t("upload.chooseFile"));
    setBusy(true);
    setLeft([]);
    setStatus(t("upload.sending"));
    try {
      const report = target
        ? await api.addPictures(target, file, token)
        : await api.importDeck(file, name.trim() || file.name.replace(/\.[^.]+$/, ""), token);
      setLeft(report.rejected);
      if (!report.ok || !report.slug) {
        setStatus(t("upload.none", { count: report.rejected.length }));
        return;
      }
      setStatus(t("upload.done", { count: report.accepted, rejected: report.rejected.length }));
      onImported(report.slug);
    } catch (err) {
      setStatus(errorText(t, err instanceof ApiProblem ? err.code : "network"));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class="upload" onSubmit={upload} data-testid="upload">
      <label class="field">
        <span>{t("upload.file")}</span>
        <input type="file" accept=".zip,image/*" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} data-testid="upload-file" />
      </label>
      {mine.length > 0 ? (
        <label class="field">
          <span>{t("upload.into")}</span>
          <select value={target} onChange={(e) => setInto(e.currentTarget.value)} data-testid="upload-into">
            <option value="">{t("upload.newDeck")}</option>
            {mine.map((d) => <option key={d.slug} value={d.slug}>{d.name}</option>)}
          </select>
        </label>
      ) : null}
      {target ? null : (
        <label class="field">
          <span>{t("upload.name")}</span>
          <input value={name} maxLength={60} onInput={(e) => setName(e.currentTarget.value)} data-testid="upload-name" />
        </label>
      )}
      <button type="submit" class="btn" disabled={busy} data-testid="upload-send">{t("upload.send")}</button>
      {status ? <p role="status" class="muted" data-testid="upload-status">{status}</p> : null}
      {left.length > 0 ? (
        // Each file left out, by name, and why, in the player's words.
        <ul class="upload-left" data-testid="upload-left">
          {left.map((r, i) => (
            <li key={`${r.filename}-${i}`} data-testid="upload-left-file">
              <strong>{r.filename}</strong>: {rejectionText(t, r.reason, r.message)}
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}
