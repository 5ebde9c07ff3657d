"""Paper-ready reports (HTML, PDF, LaTeX): :mod:`.document` (``write_report``) over the view model
:mod:`.model`, rendered by :mod:`.html`, :mod:`.pdf`, :mod:`.latex`, with charts from :mod:`.svg`.
Tables and numbers come from the presentation layer (:mod:`corefreport.present`)."""
