"""The series colours of every figure, static and interactive: the Okabe–Ito colours of the book's
matplotlib cycle (``attnspec.mplstyle``), then four of Paul Tol's muted scheme, so that the first
:data:`COLORS` series (11) never share a colour; markers and line styles tell them apart without
colour."""

#: Okabe–Ito (colour-blind safe, the cycle's seven, without its low-contrast yellow), then Tol's
#: wine, teal, olive and purple.
COLORS = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#882255",
    "#44AA99",
    "#999933",
    "#AA4499",
)
