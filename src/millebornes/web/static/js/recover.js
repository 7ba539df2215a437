// Inlined first in every page's head (web/pages/routes.py), so that it runs when none of the build's files can be
// had: a script or a stylesheet of the page that fails to load (a process that does not have the page's build,
// docs/deploy.md "Rolling upgrades") reloads the page, once a minute at most.
(() => {
  const KEY = "mb.reloaded";
  addEventListener("error", (event) => {
    const el = event.target;
    const url = el instanceof HTMLScriptElement ? el.src : el instanceof HTMLLinkElement ? el.href : "";
    if (!url.startsWith(`${location.origin}/static/`)) return;
    try {
      const last = Number(sessionStorage.getItem(KEY));
      if (last && Date.now() - last < 60000) return;
      sessionStorage.setItem(KEY, String(Date.now()));
    } catch {
      return; // no storage, no guard against a loop: no reload
    }
    location.reload();
  }, true);
})();
