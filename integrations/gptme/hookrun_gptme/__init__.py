"""hookrun for gptme: every gptme hook event handed to hookrun, its answer handed back.

Enable it with one line in gptme.toml or ~/.config/gptme/config.toml::

    [plugins]
    paths = ["/path/to/hookrun/integrations/gptme"]

Standard library only. See docs/hosts/gptme.md in the hookrun repository.
"""
