"""«Журнал решений»: `page` lists, finds and shows rulings; `form` is the ruling form and the
judges' sign-in, which other pages (the desk, cards, rules) use too."""
