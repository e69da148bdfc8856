"""«Стол судьи»: `page` lays the desk out; `board` draws the field and the zones, `cards` the card
forms and the selected card's header, `actions` the selected card's actions and the turn's,
`trace` the verdict and the explanation, `session` the desk kept in this tab's session."""
