"""The table: one host process owns a fight and several seats (players, the GM, spectators)
join it over a Unix domain socket, normally each behind an OpenSSH forced command.

- `protocol`: the wire format (versioned, size-limited, validated JSON lines);
- `views`: what one seat may see of the fight (the GM sees all);
- `seats`: who sits where, from the command line or a table file, and the files' places;
- `host`: the asyncio server, a thin layer over the app's `Controller`;
- `aiming`: what an aimed move or power would do, for a seat, with the app's own modes;
- `client`: the seat's connection; `seat_app` and `seat_screen`: the Textual app a seat runs;
- `cli`: `skirmish host` and `skirmish join`.

See docs/table.md.
"""
