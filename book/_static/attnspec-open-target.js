// A link to a folded block (the "Re-run" link under a figure goes to #provenance) opens it on
// arrival, as does a link to anything folded inside one: on load and whenever the hash changes.
(function () {
  function openTarget() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    if (target && target.tagName === "DETAILS") target.scrollIntoView();
  }
  window.addEventListener("hashchange", openTarget);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", openTarget);
  } else {
    openTarget();
  }
})();
