import { TopBar } from "../components/TopBar";
import { useI18n } from "../i18n/context";
import { navigate } from "../routes";

/** An address that is no page and no room link: say so, and lead home. */
export function NotFound() {
  return (
    <div class="page">
      <TopBar />
      <NotFoundBody />
    </div>
  );
}

/** "No such page" or "no room CODE", with the way home. */
export function NotFoundBody({ code }: { code?: string }) {
  const { t } = useI18n();
  return (
      <main class="joinpage" data-testid="not-found">
        <div class="panel">
          <h1>{code ? t("notFound.room", { code }) : t("notFound.page")}</h1>
          <p class="muted">{t("notFound.hint")}</p>
          <a class="btn btn-primary" href="/" onClick={(e) => { e.preventDefault(); navigate("/"); }} data-testid="go-home">{t("notFound.home")}</a>
        </div>
      </main>
  );
}
