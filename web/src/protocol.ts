/** Re-exports of the generated protocol types (src/generated/protocol.ts, from the schema). */
export type {
  ClientMessage,
  ServerMessage,
  Welcome,
  GameUpdate,
  RoomUpdate,
  RoomState,
  RoomSettings,
  Seat,
  You,
  GameView,
  RoundResult,
  LegalActions,
  Deadline,
  SeatTicket,
  DeckList,
  DeckInfo,
  DeckCards,
  CardText,
  CreateRoomRequest,
  JoinRoomRequest,
  Notice,
  Closed,
  Error as ErrorMessage,
  ApiError,
} from "./generated/protocol";

export const PROTOCOL_VERSION = 1;
