-- The week's trim asks of each old mail whether it holds orders for a
-- step still to be played (store/trim.c): by the mail, not the step.
CREATE INDEX orders_by_message ON orders (message);
