// Readies the book's single page for print (attnspec.publish.pdf.prepare): called with
// {lines, css, parts}, parts being [caption, docname] of each part of the book.
({lines, css, parts}) => {
  // every folded block printed open: dropdowns, folded cells and outputs, provenance
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
  // each document at the top level, in reading order (singlehtml nests them in toctrees)
  const spans = [...document.querySelectorAll('span[id^="document-"]')];
  let at = spans.length ? spans[0].parentElement.closest('section') : null;
  while (at && at.parentElement.closest('section')) at = at.parentElement.closest('section');
  const docs = [];
  spans.forEach(span => {
    const doc = span.nextElementSibling;
    if (!at || !doc || doc.tagName !== 'SECTION') return;
    at.after(span, doc); at = doc; docs.push(doc);
    doc.classList.add('attnspec-document');
  });
  document.querySelectorAll('.toctree-wrapper').forEach(w => {
    if (!w.querySelector('section')) w.remove();
  });
  // a heading per part; a document's headings one level below its part's
  const level = h => Number(h.tagName[1]);
  const retag = (h, n) => {
    const to = document.createElement('h' + Math.min(6, Math.max(1, n)));
    [...h.attributes].forEach(a => to.setAttribute(a.name, a.value));
    to.append(...h.childNodes); h.replaceWith(to);
  };
  const first = docs.length ? docs[0].previousElementSibling.previousElementSibling : null;
  const sections = [first, ...docs].filter(Boolean);
  const partOf = new Set();
  parts.forEach(([caption, docname]) => {
    const span = document.getElementById('document-' + docname);
    if (!span) return;
    const heading = document.createElement('h1');
    heading.className = 'attnspec-part';
    heading.id = 'attnspec-part-' + docname.replace(/\W+/g, '-');
    heading.textContent = caption;
    span.before(heading);
    span.nextElementSibling.classList.add('attnspec-after-part');
  });
  let inPart = false;
  const HEADINGS = 'h1, h2, h3, h4, h5, h6';
  sections.forEach(doc => {
    if (doc.previousElementSibling?.previousElementSibling?.classList.contains('attnspec-part'))
      inPart = true;
    const headings = [...doc.querySelectorAll(HEADINGS)].filter(h => !h.closest('.cell_output'));
    if (!headings.length) return;
    const top = inPart ? 2 : 1, shift = top - level(headings[0]);
    headings.forEach((h, i) => retag(h, i ? Math.max(top + 1, level(h) + shift) : top));
  });
  // headings a cell printed (Markdown output) go below the section that holds the cell
  document.querySelectorAll('.cell_output').forEach(output => {
    const headings = [...output.querySelectorAll(HEADINGS)];
    if (!headings.length) return;
    const section = output.closest('section');
    const owner = section && [...section.querySelectorAll(HEADINGS)]
      .find(h => h.closest('section') === section && !h.closest('.cell_output'));
    const below = owner ? level(owner) + 1 : 3, least = Math.min(...headings.map(level));
    headings.forEach(h => retag(h, below + level(h) - least));
  });
  // no pilcrows and no print-only copy of the title; no sentence about the site's downloads
  document.querySelectorAll('a.headerlink, .onlyprint, .attnspec-downloads')
    .forEach(e => e.remove());
  // links into this page become anchors in it; links to files no reader has lose their target
  document.querySelectorAll('a[href]').forEach(a => {
    const url = new URL(a.href, document.baseURI);
    if (url.protocol !== 'file:') return;
    const id = decodeURIComponent(url.hash.slice(1));
    if (id && document.getElementById(id)) a.setAttribute('href', '#' + id);
    else a.removeAttribute('href');
  });
  // names in code break after a dot, slash or underscore, never inside a word
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: n => n.parentElement.closest('code') && !n.parentElement.closest('pre')
      ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT,
  });
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  texts.forEach(t => {
    const pieces = t.data.split(/(?<=[._\/])(?=[^._\/])/);
    if (pieces.length < 2) return;
    const run = document.createDocumentFragment();
    pieces.forEach((piece, i) => {
      if (i) run.append(document.createElement('wbr'));
      run.append(piece);
    });
    t.replaceWith(run);
  });
  // a heading stays on the page of what follows it
  document.querySelectorAll('h2, h3, h4, h5, h6').forEach(h => {
    const next = h.nextElementSibling;
    if (!next || next.tagName === 'SECTION' || /^H[1-6]$/.test(next.tagName)) return;
    const keep = document.createElement('div');
    keep.className = 'attnspec-keep';
    h.before(keep); keep.append(h, next);
  });
  const title = document.createElement('section');
  title.className = 'attnspec-title-page';
  lines.forEach((text, i) => {
    const line = title.appendChild(document.createElement('p'));
    line.textContent = text;
    if (!i) line.className = 'attnspec-title';
  });
  document.body.prepend(title);
  document.head.appendChild(document.createElement('style')).textContent = css;
}
