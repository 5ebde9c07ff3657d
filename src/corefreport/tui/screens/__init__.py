"""The browser's screens: one per node of a study (a pair, several systems, a page of datasets or groups)."""
