-- How each player wants their reports (SET MAIL in a mail):
--   text  plain text only (the narrative with the text map)
--   html  the text and an HTML part showing the map inline (the default)
--   full  html, with the map as PNG and SVG and the side's JSON report
--         attached
ALTER TABLE players ADD COLUMN mail_format TEXT NOT NULL DEFAULT 'html'
    CHECK (mail_format IN ('text', 'html', 'full'));
