"""«Что изменилось»: `page` sets two rules versions side by side; `affected` lists the rulings
and scenarios the changes touch."""
