"""The app's screens: start, encounter, help, end, and the modal dialogs."""
