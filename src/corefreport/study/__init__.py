"""The several-evaluations storey: what a command evaluates (:mod:`.plan`), read once
(:mod:`.read`, the only caller of the readers), scored by one :func:`~.run.run` into one typed
result (:mod:`.nodes`) that every command and view renders. Pure data, like :mod:`corefreport.scoring`:
no terminal, browser or document library."""
