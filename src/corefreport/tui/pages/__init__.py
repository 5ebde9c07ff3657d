"""The pages of the browser's screens: one class per page (what it shows, what Enter opens, its crumb)."""
