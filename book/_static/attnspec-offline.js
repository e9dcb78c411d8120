// Opened from disk (file://), the search page cannot fetch the pages its result snippets come
// from ("Failed to fetch"): show the results without snippets there. Served over http(s), the
// snippets are kept. Loaded after documentation_options.js, before the search runs.
if (window.location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined") {
  DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
}
