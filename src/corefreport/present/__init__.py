"""The presentation layer: labels, neutral tables built from an ``Evaluation`` or a
``Comparison``, number formatting, and the CSV / Markdown / booktabs / Rich renderers and file
writers that the views (``cli``, ``tui``, ``report``) share. It imports scoring and none of the views.
"""
