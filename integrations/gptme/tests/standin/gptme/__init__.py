"""A stand-in for the small part of gptme the hookrun plugin uses, for its tests only.

Shaped from gptme's own source at commit d27f98d3a55451491d00bbd20035d328e34219b1 (0.33.0,
https://github.com/gptme/gptme): the same module paths, names, signatures and enum values; the
hook registry and tool confirmation keep gptme's behaviour (priority order, kwargs filtering,
StopPropagation, SessionCompleteException re-raised, a confirm hook's exception becoming a skip).
gptme itself does not install from the registries this project's CI reaches.
"""
