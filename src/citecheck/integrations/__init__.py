"""citecheck where users already work: LangChain (:mod:`citecheck.integrations.langchain`),
LlamaIndex (:mod:`citecheck.integrations.llamaindex`), and what every integration shares
(:mod:`citecheck.integrations.answers`). Each needs its own extra and is imported only when
asked for."""
